-- ulid 0.1.0 -> 0.2.0 (ALTER EXTENSION ulid UPDATE): for databases moved from pgx_ulid.
-- - The casts ulid -> timestamptz, timestamptz -> ulid and ulid -> bytea become assignment casts
--   (a cast's context cannot be altered: each is dropped and created again; expressions that use
--   a cast depend on its function, which stays).
-- - New: the casts between ulid and timestamp (UTC), and pgx_ulid's function names as aliases.
-- - New: gen_server_monotonic_ulid(), strictly increasing across the sessions of a server.
\echo Use "ALTER EXTENSION ulid UPDATE TO '0.2.0'" to load this file. \quit

DROP CAST (ulid AS timestamptz);
CREATE CAST (ulid AS timestamptz) WITH FUNCTION ulid_to_timestamptz(ulid) AS ASSIGNMENT;
DROP CAST (timestamptz AS ulid);
CREATE CAST (timestamptz AS ulid) WITH FUNCTION ulid_from_timestamptz(timestamptz) AS ASSIGNMENT;
DROP CAST (ulid AS bytea);
CREATE CAST (ulid AS bytea) WITH FUNCTION ulid_to_bytea(ulid) AS ASSIGNMENT;

CREATE FUNCTION ulid_to_timestamp(ulid) RETURNS timestamp
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_to_timestamp_wrapper';
CREATE CAST (ulid AS timestamp) WITH FUNCTION ulid_to_timestamp(ulid) AS ASSIGNMENT;
CREATE FUNCTION ulid_from_timestamp(timestamp) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_from_timestamp_wrapper';
CREATE CAST (timestamp AS ulid) WITH FUNCTION ulid_from_timestamp(timestamp) AS ASSIGNMENT;
COMMENT ON FUNCTION ulid_to_timestamp(ulid) IS 'the millisecond in a ulid as UTC wall-clock time, in every session (the ulid -> timestamp cast)';
COMMENT ON FUNCTION ulid_from_timestamp(timestamp) IS 'the lowest ulid of a millisecond, the timestamp read as UTC (the timestamp -> ulid cast); 22008 before 1970 or after 10889-08-02 05:31:50.655';

CREATE FUNCTION ulid_to_uuid(ulid) RETURNS uuid
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_same_bytes_wrapper';
CREATE FUNCTION ulid_from_uuid(uuid) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_same_bytes_wrapper';
CREATE FUNCTION timestamp_to_ulid(timestamp) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_from_timestamp_wrapper';
CREATE FUNCTION timestamptz_to_ulid(timestamptz) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_from_timestamptz_wrapper';
COMMENT ON FUNCTION ulid_to_uuid(ulid) IS 'pgx_ulid''s name for ulid::uuid: the same 16 bytes';
COMMENT ON FUNCTION ulid_from_uuid(uuid) IS 'pgx_ulid''s name for uuid::ulid: the same 16 bytes';
COMMENT ON FUNCTION timestamp_to_ulid(timestamp) IS 'pgx_ulid''s name for timestamp::ulid: the lowest ulid of the millisecond, read as UTC';
COMMENT ON FUNCTION timestamptz_to_ulid(timestamptz) IS 'pgx_ulid''s name for timestamptz::ulid: the lowest ulid of the millisecond';

CREATE FUNCTION gen_server_monotonic_ulid() RETURNS ulid
    VOLATILE PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'gen_server_monotonic_ulid_wrapper';
COMMENT ON FUNCTION gen_server_monotonic_ulid() IS 'a new ulid, strictly greater than every earlier one from this function in any session of the server; needs shared_preload_libraries = ''ulid''; 2200H if a millisecond''s 2^80 values run out';
