-- The default hash operator class of `ulid`: uuid's 32-bit hash and its seeded 64-bit hash, for
-- hash indexes, hash joins, hash aggregation and PARTITION BY HASH. A ulid hashes like the uuid
-- with the same bytes.

CREATE FUNCTION ulid_hash(ulid) RETURNS integer
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'uuid_hash';

CREATE FUNCTION ulid_hash_extended(ulid, bigint) RETURNS bigint
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'uuid_hash_extended';

CREATE OPERATOR CLASS ulid_ops
    DEFAULT FOR TYPE ulid USING hash AS
        OPERATOR 1 =,
        FUNCTION 1 ulid_hash(ulid),
        FUNCTION 2 ulid_hash_extended(ulid, bigint);

COMMENT ON FUNCTION ulid_hash(ulid) IS '32-bit hash of a ulid, equal to the hash of the same uuid';
COMMENT ON FUNCTION ulid_hash_extended(ulid, bigint) IS 'seeded 64-bit hash of a ulid, equal to that of the same uuid';
COMMENT ON OPERATOR CLASS ulid_ops USING hash IS 'default hash operator class for ulid: hash indexes, joins, aggregates, PARTITION BY HASH';
