-- Run without the preload, on PostgreSQL 14 only, which has no reserved prefixes. A session that
-- sets a misspelt ulid.* setting before the library loads: when it loads, the library warns
-- about it (EmitWarningsOnPlaceholders); the placeholder stays, as 14 keeps it.
SET ulid.typo = 1;
LOAD 'ulid';
SELECT current_setting('ulid.typo', true) AS typo_after_load;
