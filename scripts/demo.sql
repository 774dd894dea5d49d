-- The ulid extension in a few statements. Run by scripts/demo.sh on a throwaway cluster.
\pset footer off
SET TimeZone = 'UTC';

CREATE EXTENSION ulid;

-- A table keyed by ULIDs: 16 bytes, sortable, made by the server.
CREATE TABLE orders (
    id       ulid PRIMARY KEY DEFAULT gen_ulid(),
    customer text NOT NULL,
    amount   numeric NOT NULL
);
INSERT INTO orders (customer, amount) VALUES ('alice', 12.50), ('bob', 7.25), ('carol', 99.00);

-- Each row's creation time is in its id. (Rows made in the same millisecond sort by their
-- random part; gen_monotonic_ulid(), below, keeps the order of generation as well.)
SELECT id, id::timestamptz AS created_at, customer FROM orders ORDER BY id;
SELECT pg_column_size(id) AS bytes_per_id FROM orders LIMIT 1;

-- A year of history: one order every 5 minutes, ids made for those instants.
INSERT INTO orders (id, customer, amount)
SELECT gen_ulid(now() - n * interval '5 minutes'), 'customer ' || (n % 1000), n % 100
FROM generate_series(1, 105120) AS n;
ANALYZE orders;

-- Orders created in a time range, answered through the primary-key index.
EXPLAIN (COSTS OFF)
SELECT count(*), sum(amount) FROM orders
WHERE id >= (now() - interval '1 day')::ulid AND id < (now() - interval '12 hours')::ulid;
SELECT count(*) AS orders_between_24h_and_12h_ago, sum(amount) FROM orders
WHERE id >= (now() - interval '1 day')::ulid AND id < (now() - interval '12 hours')::ulid;

-- A ulid is the same 16 bytes as a uuid: the round trip is exact.
SELECT id, id::uuid AS as_uuid, id::uuid::ulid = id AS round_trip FROM orders ORDER BY id DESC LIMIT 3;

-- Monotonic ids: strictly increasing within a session, even inside one millisecond.
SELECT gen_monotonic_ulid() FROM generate_series(1, 4);

-- ulidflake: 64-bit ids that fit a bigint, unique within the database (state in shared memory).
CREATE TABLE events (id ulidflake PRIMARY KEY DEFAULT gen_ulidflake(), kind text);
INSERT INTO events (kind) SELECT 'event ' || n FROM generate_series(1, 5) AS n;
SELECT id, id::bigint AS as_bigint, id::timestamptz AS created_at, ulidflake_randomness(id) AS randomness
FROM events ORDER BY id;
SELECT pg_column_size(id) AS bytes_per_id FROM events LIMIT 1;

-- What a malformed ULID gets: SQLSTATE 22P02 and a message that says what is wrong.
\set ON_ERROR_STOP 0
SELECT 'not-a-ulid'::ulid;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::ulid;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT '81ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT ulid_is_valid('01ARZ3NDEKTSV4RRFFQ69G5FAU') AS is_valid;
