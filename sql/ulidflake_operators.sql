-- Comparison operators of `ulidflake`. The datum is a non-negative bigint, so bigint's own
-- functions compare it: same order (integer order = text order = time order), same speed.

CREATE FUNCTION ulidflake_eq(ulidflake, ulidflake) RETURNS boolean
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'int8eq';
CREATE FUNCTION ulidflake_ne(ulidflake, ulidflake) RETURNS boolean
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'int8ne';
CREATE FUNCTION ulidflake_lt(ulidflake, ulidflake) RETURNS boolean
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'int8lt';
CREATE FUNCTION ulidflake_le(ulidflake, ulidflake) RETURNS boolean
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'int8le';
CREATE FUNCTION ulidflake_gt(ulidflake, ulidflake) RETURNS boolean
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'int8gt';
CREATE FUNCTION ulidflake_ge(ulidflake, ulidflake) RETURNS boolean
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF LANGUAGE internal AS 'int8ge';

CREATE OPERATOR = (
    LEFTARG = ulidflake, RIGHTARG = ulidflake, FUNCTION = ulidflake_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = ulidflake, RIGHTARG = ulidflake, FUNCTION = ulidflake_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = ulidflake, RIGHTARG = ulidflake, FUNCTION = ulidflake_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = ulidflake, RIGHTARG = ulidflake, FUNCTION = ulidflake_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = ulidflake, RIGHTARG = ulidflake, FUNCTION = ulidflake_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = ulidflake, RIGHTARG = ulidflake, FUNCTION = ulidflake_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

COMMENT ON FUNCTION ulidflake_eq(ulidflake, ulidflake) IS 'implementation of ulidflake = ulidflake';
COMMENT ON FUNCTION ulidflake_ne(ulidflake, ulidflake) IS 'implementation of ulidflake <> ulidflake';
COMMENT ON FUNCTION ulidflake_lt(ulidflake, ulidflake) IS 'implementation of ulidflake < ulidflake';
COMMENT ON FUNCTION ulidflake_le(ulidflake, ulidflake) IS 'implementation of ulidflake <= ulidflake';
COMMENT ON FUNCTION ulidflake_gt(ulidflake, ulidflake) IS 'implementation of ulidflake > ulidflake';
COMMENT ON FUNCTION ulidflake_ge(ulidflake, ulidflake) IS 'implementation of ulidflake >= ulidflake';
