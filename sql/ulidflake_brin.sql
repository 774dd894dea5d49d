-- BRIN operator classes of `ulidflake`: minmax (default) and minmax-multi, with bigint's
-- minmax-multi distance.

CREATE OPERATOR CLASS ulidflake_minmax_ops
    DEFAULT FOR TYPE ulidflake USING brin AS
        OPERATOR 1 <,
        OPERATOR 2 <=,
        OPERATOR 3 =,
        OPERATOR 4 >=,
        OPERATOR 5 >,
        FUNCTION 1 brin_minmax_opcinfo(internal),
        FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
        FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
        FUNCTION 4 brin_minmax_union(internal, internal, internal);

CREATE OPERATOR CLASS ulidflake_minmax_multi_ops
    FOR TYPE ulidflake USING brin AS
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
        FUNCTION 11 brin_minmax_multi_distance_int8(internal, internal);

COMMENT ON OPERATOR CLASS ulidflake_minmax_ops USING brin IS 'BRIN minmax for ulidflake (default)';
COMMENT ON OPERATOR CLASS ulidflake_minmax_multi_ops USING brin IS 'BRIN minmax-multi for ulidflake: copes with a few out-of-order ids';
