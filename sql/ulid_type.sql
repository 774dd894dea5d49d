-- The type `ulid`: 16 bytes, most significant first -- the ULID binary form, which is also
-- exactly the bytes of the `uuid` with the same value. Fixed length, aligned and stored like uuid.

CREATE TYPE ulid;

CREATE FUNCTION ulid_in(cstring) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_in_wrapper';

CREATE FUNCTION ulid_out(ulid) RETURNS cstring
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_out_wrapper';

CREATE FUNCTION ulid_recv(internal) RETURNS ulid
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'ulid_recv_wrapper';

-- The wire format is uuid's: the 16 raw bytes.
CREATE FUNCTION ulid_send(ulid) RETURNS bytea
    IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
    LANGUAGE internal AS 'uuid_send';

CREATE TYPE ulid (
    INPUT = ulid_in,
    OUTPUT = ulid_out,
    RECEIVE = ulid_recv,
    SEND = ulid_send,
    INTERNALLENGTH = 16,
    ALIGNMENT = char,
    STORAGE = plain
);

COMMENT ON TYPE ulid IS 'ULID: 128-bit sortable id, 48-bit Unix-millisecond timestamp + 80 random bits; text is 26 Crockford base32 characters; stored as the 16 bytes of the uuid with the same value';
COMMENT ON FUNCTION ulid_in(cstring) IS 'ulid text input: 26 Crockford base32 characters, any case (22P02 otherwise)';
COMMENT ON FUNCTION ulid_out(ulid) IS 'ulid text output: 26 upper-case Crockford base32 characters';
COMMENT ON FUNCTION ulid_recv(internal) IS 'ulid binary input: exactly 16 bytes, most significant first (22P03 otherwise)';
COMMENT ON FUNCTION ulid_send(ulid) IS 'ulid binary output: the 16 bytes, the wire format of uuid';
