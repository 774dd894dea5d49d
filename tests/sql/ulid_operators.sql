-- Comparison operators, ordering, and the min/max aggregates.

-- The operators and their planner properties.
SELECT o.oprname, o.oprcode, c.oprname AS commutator, n.oprname AS negator,
       o.oprrest, o.oprjoin, o.oprcanhash AS hashes, o.oprcanmerge AS merges
FROM pg_operator o
LEFT JOIN pg_operator c ON c.oid = o.oprcom
LEFT JOIN pg_operator n ON n.oid = o.oprnegate
WHERE o.oprleft = 'ulid'::regtype AND o.oprright = 'ulid'::regtype
ORDER BY o.oprname;

-- Truth table on a smaller, an equal and a larger value, and NULL.
SELECT a, b, a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le, a > b AS gt, a >= b AS ge
FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid)) AS x(a),
     (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAT'::ulid), ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01arz3ndektsv4rrffq69g5faw'),
             ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('00000000000000000000000000'), (NULL)) AS y(b);

-- Sort order = text order = uuid (byte) order = time order, on 5000 values from many instants.
CREATE TABLE ord AS
SELECT gen_ulid(to_timestamp(0) + (random() * 1e11) * interval '1 millisecond') AS id
FROM generate_series(1, 5000);
SELECT (SELECT array_agg(id ORDER BY id) FROM ord) = (SELECT array_agg(id ORDER BY id::text COLLATE "C") FROM ord) AS text_order,
       (SELECT array_agg(id ORDER BY id) FROM ord) = (SELECT array_agg(id ORDER BY id::uuid) FROM ord) AS uuid_order,
       (SELECT array_agg(id ORDER BY id) FROM ord) = (SELECT array_agg(id ORDER BY id::bytea) FROM ord) AS byte_order,
       (SELECT bool_and(t1 <= t2) FROM (SELECT id::timestamptz AS t1, lead(id::timestamptz) OVER (ORDER BY id) AS t2 FROM ord) s) AS time_order;
-- The comparison function agrees with the operators, on pairs that give all three answers every
-- run: each value against itself (0), against the next larger one (-1) and the next larger one
-- against it (+1); and two pairs that differ only in the last bit, or only in the first.
WITH sorted AS (SELECT id, lead(id) OVER (ORDER BY id) AS next FROM ord),
pairs AS (
    SELECT id AS a, id AS b FROM sorted
    UNION ALL SELECT id, next FROM sorted WHERE next IS NOT NULL
    UNION ALL SELECT next, id FROM sorted WHERE next IS NOT NULL
    UNION ALL VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, '01ARZ3NDEKTSV4RRFFQ69G5FAW'::ulid),
                     ('3ZZZZZZZZZZZZZZZZZZZZZZZZZ', '40000000000000000000000000'))
SELECT sign(ulid_cmp(a, b)) AS cmp, count(*) AS pairs,
       count(*) FILTER (WHERE sign(ulid_cmp(a, b)) = CASE WHEN a < b THEN -1 WHEN a = b THEN 0 ELSE 1 END
                          AND (a < b) = (a::uuid < b::uuid)) AS agree_with_operators_and_uuid
FROM pairs GROUP BY 1 ORDER BY 1;

-- min and max: correct, usable in parallel plans, and answered from a btree index.
SELECT min(id) = (SELECT id FROM ord ORDER BY id LIMIT 1) AS min_ok,
       max(id) = (SELECT id FROM ord ORDER BY id DESC LIMIT 1) AS max_ok,
       min(id::text COLLATE "C")::ulid = min(id) AS min_text_agrees
FROM ord;
SELECT min(id), max(id) FROM (VALUES (NULL::ulid), ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), (NULL)) AS v(id);
SELECT min(id) AS no_rows FROM ord WHERE false;
SELECT a.aggfnoid::regprocedure, a.aggtransfn, a.aggcombinefn, o.oprname AS sortop, p.proparallel
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid JOIN pg_operator o ON o.oid = a.aggsortop
WHERE a.aggfnoid::regprocedure::text IN ('min(ulid)', 'max(ulid)')
ORDER BY a.aggfnoid::regprocedure::text COLLATE "C";
CREATE INDEX ord_id ON ord (id);
ANALYZE ord;
SELECT plan_nodes('SELECT max(id) FROM ord');
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
SET parallel_leader_participation = off;
-- In parallel: two workers each aggregate part of the table, and the leader combines their two
-- partial states (ulid_smaller and ulid_larger as combine functions); one execution, kept.
SELECT * FROM run_into('SELECT min(id) AS lo, max(id) AS hi FROM ord', 'ord_minmax');
RESET ALL;
SELECT lo = (SELECT id FROM ord ORDER BY id LIMIT 1) AS parallel_min_ok,
       hi = (SELECT id FROM ord ORDER BY id DESC LIMIT 1) AS parallel_max_ok
FROM ord_minmax;
DROP TABLE ord_minmax;

DROP TABLE ord;
