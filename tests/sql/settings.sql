-- The library's settings. ulid.node_id: -1 (stand-alone ulidflake ids) unless postgresql.conf
-- says otherwise; only the server configuration can change it, within -1..31.
-- ulid.max_databases: set at server start (the slots of shared memory).
SELECT name, setting, min_val, max_val, context, short_desc FROM pg_settings WHERE name LIKE 'ulid.%' ORDER BY name;
SET ulid.node_id = 3;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET ulid.node_id = 32;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET ulid.node_id = -2;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ulid.max_databases = 10;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
