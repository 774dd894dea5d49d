-- Run without the preload. A session that sets a misspelt ulid.* setting before the library
-- loads: when it loads, from PostgreSQL 15 on, the placeholder is removed with a warning, and
-- the prefix is reserved from then on.
SET ulid.typo = 1;
LOAD 'ulid';
SELECT current_setting('ulid.typo', true) AS typo_after_load;
SET ulid.typo = 2;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
