-- The volatility, strictness, parallel safety and leakproofness of everything the extension
-- declares. They are part of correctness: IMMUTABLE casts can be used in indexes, VOLATILE
-- generators run once per row, PARALLEL RESTRICTED keeps gen_monotonic_ulid() in the leader,
-- LEAKPROOF operators can be pushed into security-barrier views.
-- Every function of the extension with its markings (v/s/i volatile/stable/immutable;
-- parallel s/r/u safe/restricted/unsafe).
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proparallel AS parallel,
       p.proisstrict AS strict, p.proleakproof AS leakproof
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
ORDER BY p.oid::regprocedure::text COLLATE "C";


-- Every type and function has a description, for \dT+ and \df+.
SELECT count(*) AS functions, count(*) FILTER (WHERE obj_description(p.oid, 'pg_proc') IS NULL) AS without_comment
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid');
SELECT typname, obj_description(oid, 'pg_type') FROM pg_type WHERE typname IN ('ulid', 'ulidflake') ORDER BY 1;

-- (STRICT is shown above. What depends on it here: min and max start from the first non-NULL
-- value because their transition functions are STRICT, tested in ulid_operators.sql; a STRICT
-- function is never called with a NULL, which the entry points of src/pg/datum.rs rely on.)

-- LEAKPROOF comparisons can be pushed below a security barrier: a lookup by id through a
-- security_barrier view uses the primary key's index.
CREATE TABLE secrets (id ulid PRIMARY KEY, flake ulidflake UNIQUE, owner name NOT NULL);
INSERT INTO secrets
SELECT gen_ulid('2025-01-01 00:00:00+00'::timestamptz + n * interval '1 second'),
       (n::bigint * 1048576)::ulidflake, CASE WHEN n % 2 = 0 THEN current_user ELSE 'someone else' END
FROM generate_series(1, 10000) AS n;
ANALYZE secrets;
CREATE VIEW my_secrets WITH (security_barrier) AS SELECT * FROM secrets WHERE owner = current_user;
EXPLAIN (COSTS OFF) SELECT * FROM my_secrets WHERE id = '01JGFJJZ00XHF7E02JJ03AE4T7';
EXPLAIN (COSTS OFF) SELECT * FROM my_secrets WHERE flake = '0000000000G00';
DROP VIEW my_secrets;
DROP TABLE secrets;
