-- pgx_ulid's function names, for databases and SQL moved from that extension (its dumps call
-- them): thin aliases of this extension's casts, with the same results and markings.
-- ulid_to_bytea, ulid_to_timestamp and ulid_to_timestamptz are already this extension's own
-- cast functions (sql/ulid_casts.sql).

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
