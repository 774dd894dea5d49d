-- From PostgreSQL 15 on, the library reserves the prefix "ulid." (MarkGUCPrefixReserved): a
-- misspelt setting of ours is an error, not a silent placeholder.
SET ulid.no_such_setting = 1;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ulid.node_idd = 3;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
