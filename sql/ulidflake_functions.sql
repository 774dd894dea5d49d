-- Generators, accessors and aggregates of `ulidflake`.

-- One sequence per database: every call in the database returns a value greater than every
-- earlier call's, from state in shared memory (needs shared_preload_libraries = 'ulid').
-- Stand-alone ids, or scalable ids carrying the server's node number when ulid.node_id is set.
-- Parallel workers share the state: PARALLEL SAFE.
CREATE FUNCTION gen_ulidflake() RETURNS ulidflake
    VOLATILE PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'gen_ulidflake_wrapper';

-- A scalable id with the given scalability id (0..31), whatever ulid.node_id says.
CREATE FUNCTION gen_ulidflake(scalability_id integer) RETURNS ulidflake
    VOLATILE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'gen_ulidflake_scalable_wrapper';

-- The same function as the ulidflake -> timestamptz cast.
CREATE FUNCTION ulidflake_timestamp(ulidflake) RETURNS timestamptz
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_to_timestamptz_wrapper';

-- The low 20 bits: the randomness of a stand-alone id.
CREATE FUNCTION ulidflake_randomness(ulidflake) RETURNS integer
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_randomness_wrapper';

-- Read as a scalable id: the 15 random bits, and the 5-bit scalability id.
CREATE FUNCTION ulidflake_scalable_randomness(ulidflake) RETURNS integer
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_scalable_randomness_wrapper';

CREATE FUNCTION ulidflake_scalability_id(ulidflake) RETURNS integer
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_scalability_id_wrapper';

-- Whether a text is a valid ulidflake, answering false instead of raising an error.
CREATE FUNCTION ulidflake_is_valid(text) RETURNS boolean
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_is_valid_wrapper';

-- min/max with bigint's own functions (the datum is a non-negative bigint).
CREATE FUNCTION ulidflake_larger(ulidflake, ulidflake) RETURNS ulidflake
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'int8larger';

CREATE FUNCTION ulidflake_smaller(ulidflake, ulidflake) RETURNS ulidflake
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'int8smaller';

CREATE AGGREGATE min(ulidflake) (
    SFUNC = ulidflake_smaller, STYPE = ulidflake, COMBINEFUNC = ulidflake_smaller,
    SORTOP = <, PARALLEL = SAFE
);

CREATE AGGREGATE max(ulidflake) (
    SFUNC = ulidflake_larger, STYPE = ulidflake, COMBINEFUNC = ulidflake_larger,
    SORTOP = >, PARALLEL = SAFE
);

COMMENT ON FUNCTION gen_ulidflake() IS 'a new ulidflake, greater than every earlier one in this database; scalable with the node number when ulid.node_id is set; needs shared_preload_libraries = ''ulid'' (55000)';
COMMENT ON FUNCTION gen_ulidflake(integer) IS 'a new scalable ulidflake carrying the given scalability id 0..31 (22023 otherwise), greater than every earlier one in this database';
COMMENT ON FUNCTION ulidflake_timestamp(ulidflake) IS 'the millisecond in a ulidflake, as a timestamptz';
COMMENT ON FUNCTION ulidflake_randomness(ulidflake) IS 'the low 20 bits of a ulidflake: the randomness of a stand-alone id';
COMMENT ON FUNCTION ulidflake_scalable_randomness(ulidflake) IS 'bits 5..19 of a ulidflake: the randomness of a scalable id';
COMMENT ON FUNCTION ulidflake_scalability_id(ulidflake) IS 'the low 5 bits of a ulidflake: the node (scalability id) of a scalable id';
COMMENT ON FUNCTION ulidflake_is_valid(text) IS 'whether the text is a valid ulidflake (false instead of an error)';
COMMENT ON FUNCTION ulidflake_larger(ulidflake, ulidflake) IS 'the larger of two ulidflakes (support of max)';
COMMENT ON FUNCTION ulidflake_smaller(ulidflake, ulidflake) IS 'the smaller of two ulidflakes (support of min)';
COMMENT ON AGGREGATE min(ulidflake) IS 'the smallest (oldest) ulidflake';
COMMENT ON AGGREGATE max(ulidflake) IS 'the largest (newest) ulidflake';
