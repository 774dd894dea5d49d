-- The type `ulid`: 16 bytes, most significant first -- the ULID binary form, which is also
-- exactly the bytes of the `uuid` with the same value. Fixed length, aligned and stored like uuid.

-- Where the extension may be installed: a schema owned by the role installing it, by a superuser,
-- or by the database's owner (pg_database_owner, which owns public from PostgreSQL 15 on). The
-- owner of a schema can drop what it holds and put objects of its own in their place: a schema
-- owned by any other role would hand that role every later call of the extension's functions,
-- a superuser's included. Every name here is qualified, so nothing found through the
-- search_path runs.
DO $guard$
DECLARE
    schema_owner oid;
BEGIN
    SELECT n.nspowner INTO schema_owner FROM pg_catalog.pg_namespace n
    WHERE n.nspname OPERATOR(pg_catalog.=) pg_catalog.current_schema();
    IF NOT (schema_owner OPERATOR(pg_catalog.=) '@extowner@'::pg_catalog.regrole
            OR schema_owner OPERATOR(pg_catalog.=) 'pg_database_owner'::pg_catalog.regrole
            OR (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.oid OPERATOR(pg_catalog.=) schema_owner)) THEN
        RAISE EXCEPTION 'extension "ulid" must not be installed in schema "%", which role "%" owns',
                pg_catalog.current_schema(), pg_catalog.pg_get_userbyid(schema_owner)
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'The owner of a schema can replace the functions in it. Install the extension in a schema owned by you, a superuser or the database owner.';
    END IF;
END
$guard$;

CREATE TYPE ulid;

CREATE FUNCTION ulid_in(cstring) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_in_wrapper';

CREATE FUNCTION ulid_out(ulid) RETURNS cstring
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_out_wrapper';

CREATE FUNCTION ulid_recv(internal) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_recv_wrapper';

-- The wire format is uuid's: the 16 raw bytes.
CREATE FUNCTION ulid_send(ulid) RETURNS bytea
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE internal AS 'uuid_send';

CREATE TYPE ulid (
    INPUT = ulid_in,
    OUTPUT = ulid_out,
    RECEIVE = ulid_recv,
    SEND = ulid_send,
    INTERNALLENGTH = 16,
    ALIGNMENT = char,
    STORAGE = plain
);

COMMENT ON TYPE ulid IS 'ULID: 128-bit sortable id, 48-bit Unix-millisecond timestamp + 80 random bits; text is 26 Crockford base32 characters; stored as the 16 bytes of the uuid with the same value';
COMMENT ON FUNCTION ulid_in(cstring) IS 'ulid text input: 26 Crockford base32 characters, any case (22P02 otherwise)';
COMMENT ON FUNCTION ulid_out(ulid) IS 'ulid text output: 26 upper-case Crockford base32 characters';
COMMENT ON FUNCTION ulid_recv(internal) IS 'ulid binary input: exactly 16 bytes, most significant first (22P03 otherwise)';
COMMENT ON FUNCTION ulid_send(ulid) IS 'ulid binary output: the 16 bytes, the wire format of uuid';
