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
