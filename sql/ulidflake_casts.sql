-- Casts of `ulidflake`. None is implicit, so installing the extension adds no candidate to the
-- resolution of existing bigint, text or timestamptz expressions.
--
--   ulidflake -> bigint       assignment  the value (binary coercible, no function call)
--   bigint -> ulidflake       assignment  the same bits; a negative number is an error
--   ulidflake -> timestamptz  explicit    the millisecond in the id
--   timestamptz -> ulidflake  explicit    the lowest ulidflake of that millisecond
--   ulidflake <-> text        PostgreSQL's automatic I/O casts: to text by assignment, from
--                             text explicit

CREATE CAST (ulidflake AS bigint) WITHOUT FUNCTION AS ASSIGNMENT;

CREATE FUNCTION ulidflake_from_bigint(bigint) RETURNS ulidflake
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_from_bigint_wrapper';
CREATE CAST (bigint AS ulidflake) WITH FUNCTION ulidflake_from_bigint(bigint) AS ASSIGNMENT;

-- An instant, independent of the TimeZone setting: IMMUTABLE. It cannot fail: LEAKPROOF.
CREATE FUNCTION ulidflake_to_timestamptz(ulidflake) RETURNS timestamptz
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_to_timestamptz_wrapper';
CREATE CAST (ulidflake AS timestamptz) WITH FUNCTION ulidflake_to_timestamptz(ulidflake);

CREATE FUNCTION ulidflake_from_timestamptz(timestamptz) RETURNS ulidflake
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_from_timestamptz_wrapper';
CREATE CAST (timestamptz AS ulidflake) WITH FUNCTION ulidflake_from_timestamptz(timestamptz);

COMMENT ON FUNCTION ulidflake_from_bigint(bigint) IS 'the ulidflake with the same bits (the bigint -> ulidflake cast); 22003 for a negative number';
COMMENT ON FUNCTION ulidflake_to_timestamptz(ulidflake) IS 'the millisecond in a ulidflake, as a timestamptz (the ulidflake -> timestamptz cast)';
COMMENT ON FUNCTION ulidflake_from_timestamptz(timestamptz) IS 'the lowest ulidflake of a millisecond (the timestamptz -> ulidflake cast); 22008 before 2024-01-01 or after 2302-09-27 15:10:22.207 UTC';
