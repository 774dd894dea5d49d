-- Generators, accessors and aggregates of `ulid`.

-- The current wall-clock millisecond (at the call, not the transaction start) and 80 bits from
-- a per-process CSPRNG seeded from the OS. Each parallel worker seeds its own: PARALLEL SAFE.
CREATE FUNCTION gen_ulid() RETURNS ulid
    VOLATILE PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'gen_ulid_wrapper';

-- A ulid for a given instant, with fresh randomness.
CREATE FUNCTION gen_ulid(timestamptz) RETURNS ulid
    VOLATILE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'gen_ulid_at_wrapper';

-- Strictly increasing within a session. The state lives in the backend, so the function is
-- PARALLEL RESTRICTED: parallel workers never run it, and one session has one sequence.
CREATE FUNCTION gen_monotonic_ulid() RETURNS ulid
    VOLATILE PARALLEL RESTRICTED
    LANGUAGE c AS 'MODULE_PATHNAME', 'gen_monotonic_ulid_wrapper';

-- Strictly increasing across every session of the database: one generator per database, its last
-- value in shared memory (needs shared_preload_libraries = 'ulid'; 55000 otherwise). A primary
-- key then fills like a sequence's. The state is shared, so parallel workers may run it.
CREATE FUNCTION gen_server_monotonic_ulid() RETURNS ulid
    VOLATILE PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'gen_server_monotonic_ulid_wrapper';

-- The same function as the ulid -> timestamptz cast.
CREATE FUNCTION ulid_timestamp(ulid) RETURNS timestamptz
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_to_timestamptz_wrapper';

-- The 80 random bits, as an exact integer (0 .. 2^80 - 1): numeric, since no integer type holds
-- them. Cannot fail: LEAKPROOF.
CREATE FUNCTION ulid_randomness(ulid) RETURNS numeric
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_randomness_wrapper';

-- Whether a text is a valid ulid, answering false instead of raising an error.
CREATE FUNCTION ulid_is_valid(text) RETURNS boolean
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_is_valid_wrapper';

CREATE FUNCTION ulid_larger(ulid, ulid) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_larger_wrapper';

CREATE FUNCTION ulid_smaller(ulid, ulid) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_smaller_wrapper';

-- SORTOP lets the planner answer min/max from a btree index.
CREATE AGGREGATE min(ulid) (
    SFUNC = ulid_smaller, STYPE = ulid, COMBINEFUNC = ulid_smaller,
    SORTOP = <, PARALLEL = SAFE
);

CREATE AGGREGATE max(ulid) (
    SFUNC = ulid_larger, STYPE = ulid, COMBINEFUNC = ulid_larger,
    SORTOP = >, PARALLEL = SAFE
);

COMMENT ON FUNCTION gen_ulid() IS 'a new ulid: the wall-clock millisecond now and 80 bits from a CSPRNG';
COMMENT ON FUNCTION gen_ulid(timestamptz) IS 'a new ulid for the given instant, with fresh randomness; 22008 outside the ulid range';
COMMENT ON FUNCTION gen_monotonic_ulid() IS 'a new ulid, strictly greater than the previous one of this session (previous + 1 within a millisecond); 2200H if a millisecond''s 2^80 values run out';
COMMENT ON FUNCTION gen_server_monotonic_ulid() IS 'a new ulid, strictly greater than every earlier one from this function in any session of this database; needs shared_preload_libraries = ''ulid''; 2200H if a millisecond''s 2^80 values run out';
COMMENT ON FUNCTION ulid_timestamp(ulid) IS 'the millisecond in a ulid, as a timestamptz';
COMMENT ON FUNCTION ulid_randomness(ulid) IS 'the 80 random bits of a ulid, as a numeric from 0 to 2^80 - 1';
COMMENT ON FUNCTION ulid_is_valid(text) IS 'whether the text is a valid ulid (false instead of an error)';
COMMENT ON FUNCTION ulid_larger(ulid, ulid) IS 'the larger of two ulids (support of max)';
COMMENT ON FUNCTION ulid_smaller(ulid, ulid) IS 'the smaller of two ulids (support of min)';
COMMENT ON AGGREGATE min(ulid) IS 'the smallest (oldest) ulid';
COMMENT ON AGGREGATE max(ulid) IS 'the largest (newest) ulid';
