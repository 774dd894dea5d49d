-- The type `ulidflake`: the 64-bit Ulid-Flake value itself (sign bit 0), passed by value and
-- laid out exactly like a bigint.

CREATE TYPE ulidflake;

CREATE FUNCTION ulidflake_in(cstring) RETURNS ulidflake
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_in_wrapper';

CREATE FUNCTION ulidflake_out(ulidflake) RETURNS cstring
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_out_wrapper';

CREATE FUNCTION ulidflake_recv(internal) RETURNS ulidflake
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulidflake_recv_wrapper';

-- The wire format is bigint's: 8 bytes, most significant first.
CREATE FUNCTION ulidflake_send(ulidflake) RETURNS bytea
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE internal AS 'int8send';

CREATE TYPE ulidflake (
    INPUT = ulidflake_in,
    OUTPUT = ulidflake_out,
    RECEIVE = ulidflake_recv,
    SEND = ulidflake_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);

COMMENT ON TYPE ulidflake IS 'Ulid-Flake: 64-bit sortable id, 43-bit milliseconds since 2024-01-01 + 20 random bits (or 15 random bits + 5-bit node); text is 13 Crockford base32 characters; stored like the bigint with the same value';
COMMENT ON FUNCTION ulidflake_in(cstring) IS 'ulidflake text input: 13 Crockford base32 characters, any case (22P02 otherwise)';
COMMENT ON FUNCTION ulidflake_out(ulidflake) IS 'ulidflake text output: 13 upper-case Crockford base32 characters';
COMMENT ON FUNCTION ulidflake_recv(internal) IS 'ulidflake binary input: the 8 bytes of a non-negative bigint (22P03 otherwise)';
COMMENT ON FUNCTION ulidflake_send(ulidflake) IS 'ulidflake binary output: the 8 bytes, the wire format of bigint';
