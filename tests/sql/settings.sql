-- The library's settings. ulid.node_id: -1 (stand-alone ulidflake ids) unless postgresql.conf
-- says otherwise; only the server configuration can change it, within -1..31.
SELECT name, setting, min_val, max_val, context, short_desc FROM pg_settings WHERE name = 'ulid.node_id';
SET ulid.node_id = 3;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ALTER SYSTEM SET ulid.node_id = 32;
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- The prefix "ulid." belongs to the library: from PostgreSQL 15 on, a misspelt setting is an
-- error (MarkGUCPrefixReserved). PostgreSQL 14 has no reserved prefixes and accepts it as a
-- placeholder (expected output settings_1.out).
SET ulid.no_such_setting = 1;
