-- ulid 0.2.0 -> 0.3.0 (ALTER EXTENSION ulid UPDATE).
-- - New: ulid_randomness(ulid), the 80 random bits as a numeric.
-- - gen_server_monotonic_ulid() and gen_ulidflake() keep one sequence per database (they kept
--   one per server): their comments say so.
-- Every object is created with plain CREATE, so an object of the same name that another role
-- made first makes the update fail instead of being taken over.
\echo Use "ALTER EXTENSION ulid UPDATE TO '0.3.0'" to load this file. \quit

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

CREATE FUNCTION ulid_randomness(ulid) RETURNS numeric
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_randomness_wrapper';
COMMENT ON FUNCTION ulid_randomness(ulid) IS 'the 80 random bits of a ulid, as a numeric from 0 to 2^80 - 1';

COMMENT ON FUNCTION gen_server_monotonic_ulid() IS 'a new ulid, strictly greater than every earlier one from this function in any session of this database; needs shared_preload_libraries = ''ulid''; 2200H if a millisecond''s 2^80 values run out';
COMMENT ON FUNCTION gen_ulidflake() IS 'a new ulidflake, greater than every earlier one in this database; scalable with the node number when ulid.node_id is set; needs shared_preload_libraries = ''ulid'' (55000)';
COMMENT ON FUNCTION gen_ulidflake(integer) IS 'a new scalable ulidflake carrying the given scalability id 0..31 (22023 otherwise), greater than every earlier one in this database';
