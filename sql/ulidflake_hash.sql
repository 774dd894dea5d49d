-- The default hash operator class of `ulidflake`: bigint's 32-bit hash and seeded 64-bit hash
-- (a ulidflake hashes like the bigint with the same value).

CREATE FUNCTION ulidflake_hash(ulidflake) RETURNS integer
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'hashint8';

CREATE FUNCTION ulidflake_hash_extended(ulidflake, bigint) RETURNS bigint
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'hashint8extended';

CREATE OPERATOR CLASS ulidflake_ops
    DEFAULT FOR TYPE ulidflake USING hash AS
        OPERATOR 1 =,
        FUNCTION 1 ulidflake_hash(ulidflake),
        FUNCTION 2 ulidflake_hash_extended(ulidflake, bigint);

COMMENT ON FUNCTION ulidflake_hash(ulidflake) IS '32-bit hash of a ulidflake, equal to the hash of the same bigint';
COMMENT ON FUNCTION ulidflake_hash_extended(ulidflake, bigint) IS 'seeded 64-bit hash of a ulidflake, equal to that of the same bigint';
COMMENT ON OPERATOR CLASS ulidflake_ops USING hash IS 'default hash operator class for ulidflake: hash indexes, joins, aggregates, PARTITION BY HASH';
