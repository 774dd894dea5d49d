-- The default btree operator class of `ulidflake`: bigint's comparison and sort support, and
-- btequalimage (deduplication on).

CREATE FUNCTION ulidflake_cmp(ulidflake, ulidflake) RETURNS integer
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'btint8cmp';

CREATE FUNCTION ulidflake_sortsupport(internal) RETURNS void
    IMMUTABLE STRICT PARALLEL SAFE LANGUAGE internal AS 'btint8sortsupport';

CREATE OPERATOR CLASS ulidflake_ops
    DEFAULT FOR TYPE ulidflake USING btree AS
        OPERATOR 1 <,
        OPERATOR 2 <=,
        OPERATOR 3 =,
        OPERATOR 4 >=,
        OPERATOR 5 >,
        FUNCTION 1 ulidflake_cmp(ulidflake, ulidflake),
        FUNCTION 2 ulidflake_sortsupport(internal),
        FUNCTION 4 btequalimage(oid);

COMMENT ON FUNCTION ulidflake_cmp(ulidflake, ulidflake) IS 'btree comparison of ulidflakes: -1, 0 or 1 (btint8cmp)';
COMMENT ON FUNCTION ulidflake_sortsupport(internal) IS 'btree sort support for ulidflake (btint8sortsupport)';
COMMENT ON OPERATOR CLASS ulidflake_ops USING btree IS 'default btree operator class for ulidflake: bigint''s comparison and sort support, deduplication on';
