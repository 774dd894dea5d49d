-- Casts of `ulid`. None is implicit, so installing the extension adds no candidate to the
-- resolution of existing uuid, text, timestamp or timestamptz expressions. Assignment casts apply
-- only where a value is stored into a declared type (a column, a default, a generated column, a
-- function's argument default or result), never in function or operator resolution.
--
--   ulid <-> uuid         assignment  the same 16 bytes (binary coercible, no function call)
--   ulid <-> timestamptz  assignment  the millisecond in the id / the lowest ulid of a millisecond
--   ulid <-> timestamp    assignment  the same, as UTC wall-clock time
--   ulid  -> bytea        assignment  the 16 bytes of the binary form
--   bytea -> ulid         explicit    the 16 bytes of the binary form
--   ulid <-> text         PostgreSQL's automatic I/O casts: to text by assignment, from text
--                         explicit
-- The time and bytea casts are assignment casts for databases moved from pgx_ulid, whose dumps
-- rely on them without showing them (pgx_ulid made them implicit).

CREATE CAST (ulid AS uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;

-- A ulid's time is an instant, independent of the TimeZone setting: IMMUTABLE, so it can be
-- used in index expressions and generated columns. It cannot fail: LEAKPROOF.
CREATE FUNCTION ulid_to_timestamptz(ulid) RETURNS timestamptz
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_to_timestamptz_wrapper';
CREATE CAST (ulid AS timestamptz) WITH FUNCTION ulid_to_timestamptz(ulid) AS ASSIGNMENT;

CREATE FUNCTION ulid_from_timestamptz(timestamptz) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_from_timestamptz_wrapper';
CREATE CAST (timestamptz AS ulid) WITH FUNCTION ulid_from_timestamptz(timestamptz) AS ASSIGNMENT;

-- A ulid's time as a timestamp is its UTC wall-clock time, in every session: IMMUTABLE, and the
-- inverse of timestamp -> ulid, which reads the timestamp as UTC.
CREATE FUNCTION ulid_to_timestamp(ulid) RETURNS timestamp
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_to_timestamp_wrapper';
CREATE CAST (ulid AS timestamp) WITH FUNCTION ulid_to_timestamp(ulid) AS ASSIGNMENT;

CREATE FUNCTION ulid_from_timestamp(timestamp) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_from_timestamp_wrapper';
CREATE CAST (timestamp AS ulid) WITH FUNCTION ulid_from_timestamp(timestamp) AS ASSIGNMENT;

-- uuid's send function returns exactly the 16 bytes.
CREATE FUNCTION ulid_to_bytea(ulid) RETURNS bytea
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'uuid_send';
CREATE CAST (ulid AS bytea) WITH FUNCTION ulid_to_bytea(ulid) AS ASSIGNMENT;

CREATE FUNCTION ulid_from_bytea(bytea) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_from_bytea_wrapper';
CREATE CAST (bytea AS ulid) WITH FUNCTION ulid_from_bytea(bytea);

COMMENT ON FUNCTION ulid_to_timestamptz(ulid) IS 'the millisecond in a ulid, as a timestamptz (the ulid -> timestamptz cast)';
COMMENT ON FUNCTION ulid_from_timestamptz(timestamptz) IS 'the lowest ulid of a millisecond (the timestamptz -> ulid cast); 22008 before 1970 or after 10889-08-02 05:31:50.655 UTC';
COMMENT ON FUNCTION ulid_to_timestamp(ulid) IS 'the millisecond in a ulid as UTC wall-clock time, in every session (the ulid -> timestamp cast)';
COMMENT ON FUNCTION ulid_from_timestamp(timestamp) IS 'the lowest ulid of a millisecond, the timestamp read as UTC (the timestamp -> ulid cast); 22008 before 1970 or after 10889-08-02 05:31:50.655';
COMMENT ON FUNCTION ulid_to_bytea(ulid) IS 'the 16 bytes of a ulid (the ulid -> bytea cast)';
COMMENT ON FUNCTION ulid_from_bytea(bytea) IS 'a ulid from its 16 bytes (the bytea -> ulid cast); 22P03 for any other length';
