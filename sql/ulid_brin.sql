-- BRIN operator classes of `ulid`, for large append-only tables whose ids grow with time.
-- minmax (the default) keeps one range per block range; minmax-multi keeps several, which
-- copes with a few out-of-order ids. Both use PostgreSQL's own BRIN support functions; the
-- minmax-multi distance is uuid's, which reads the same bytes.

CREATE OPERATOR CLASS ulid_minmax_ops
    DEFAULT FOR TYPE ulid USING brin AS
        OPERATOR 1 <,
        OPERATOR 2 <=,
        OPERATOR 3 =,
        OPERATOR 4 >=,
        OPERATOR 5 >,
        FUNCTION 1 brin_minmax_opcinfo(internal),
        FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
        FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
        FUNCTION 4 brin_minmax_union(internal, internal, internal);

CREATE OPERATOR CLASS ulid_minmax_multi_ops
    FOR TYPE ulid USING brin AS
        OPERATOR 1 <,
        OPERATOR 2 <=,
        OPERATOR 3 =,
        OPERATOR 4 >=,
        OPERATOR 5 >,
        FUNCTION 1 brin_minmax_multi_opcinfo(internal),
        FUNCTION 2 brin_minmax_multi_add_value(internal, internal, internal, internal),
        FUNCTION 3 brin_minmax_multi_consistent(internal, internal, internal, integer),
        FUNCTION 4 brin_minmax_multi_union(internal, internal, internal),
        FUNCTION 5 brin_minmax_multi_options(internal),
        FUNCTION 11 brin_minmax_multi_distance_uuid(internal, internal);

COMMENT ON OPERATOR CLASS ulid_minmax_ops USING brin IS 'BRIN minmax for ulid (default)';
COMMENT ON OPERATOR CLASS ulid_minmax_multi_ops USING brin IS 'BRIN minmax-multi for ulid: copes with a few out-of-order ids';
