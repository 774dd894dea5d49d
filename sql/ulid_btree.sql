-- The default btree operator class of `ulid`: uuid's comparison and sort support (with
-- abbreviated keys), and btequalimage, which declares that equal values are bitwise equal so
-- btree deduplication is on.

CREATE FUNCTION ulid_cmp(ulid, ulid) RETURNS integer
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'uuid_cmp';

CREATE FUNCTION ulid_sortsupport(internal) RETURNS void
    IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'uuid_sortsupport';

CREATE OPERATOR CLASS ulid_ops
    DEFAULT FOR TYPE ulid USING btree AS
        OPERATOR 1 <,
        OPERATOR 2 <=,
        OPERATOR 3 =,
        OPERATOR 4 >=,
        OPERATOR 5 >,
        FUNCTION 1 ulid_cmp(ulid, ulid),
        FUNCTION 2 ulid_sortsupport(internal),
        FUNCTION 4 btequalimage(oid);

COMMENT ON FUNCTION ulid_cmp(ulid, ulid) IS 'btree comparison of ulids: -1, 0 or 1 (uuid_cmp)';
COMMENT ON FUNCTION ulid_sortsupport(internal) IS 'btree sort support for ulid, with abbreviated keys (uuid_sortsupport)';
COMMENT ON OPERATOR CLASS ulid_ops USING btree IS 'default btree operator class for ulid: uuid''s comparison and sort support, deduplication on';
