-- Casts of `ulid`. None is implicit, so installing the extension adds no candidate to the
-- resolution of existing uuid, text or timestamptz expressions.
--
--   ulid <-> uuid         assignment  the same 16 bytes (binary coercible, no function call)
--   ulid  -> timestamptz  explicit    the millisecond in the id
--   timestamptz -> ulid   explicit    the lowest ulid of that millisecond (for range queries)
--   ulid <-> bytea        explicit    the 16 bytes of the binary form
--   ulid <-> text         PostgreSQL's automatic I/O casts: to text by assignment, from text
--                         explicit

CREATE CAST (ulid AS uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;

-- A ulid's time is an instant, independent of the TimeZone setting: IMMUTABLE, so it can be
-- used in index expressions and generated columns. It cannot fail: LEAKPROOF.
CREATE FUNCTION ulid_to_timestamptz(ulid) RETURNS timestamptz
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_to_timestamptz_wrapper';
CREATE CAST (ulid AS timestamptz) WITH FUNCTION ulid_to_timestamptz(ulid);

CREATE FUNCTION ulid_from_timestamptz(timestamptz) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_from_timestamptz_wrapper';
CREATE CAST (timestamptz AS ulid) WITH FUNCTION ulid_from_timestamptz(timestamptz);

-- uuid's send function returns exactly the 16 bytes.
CREATE FUNCTION ulid_to_bytea(ulid) RETURNS bytea
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'uuid_send';
CREATE CAST (ulid AS bytea) WITH FUNCTION ulid_to_bytea(ulid);

CREATE FUNCTION ulid_from_bytea(bytea) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_from_bytea_wrapper';
CREATE CAST (bytea AS ulid) WITH FUNCTION ulid_from_bytea(bytea);

COMMENT ON FUNCTION ulid_to_timestamptz(ulid) IS 'the millisecond in a ulid, as a timestamptz (the ulid -> timestamptz cast)';
COMMENT ON FUNCTION ulid_from_timestamptz(timestamptz) IS 'the lowest ulid of a millisecond (the timestamptz -> ulid cast); 22008 before 1970 or after 10889-08-02 05:31:50.655 UTC';
COMMENT ON FUNCTION ulid_to_bytea(ulid) IS 'the 16 bytes of a ulid (the ulid -> bytea cast)';
COMMENT ON FUNCTION ulid_from_bytea(bytea) IS 'a ulid from its 16 bytes (the bytea -> ulid cast); 22P03 for any other length';
