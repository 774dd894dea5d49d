-- ulid_portable.sql: ULIDs for a database that cannot install the ulid extension.
--
-- The ids are stored in uuid columns with exactly the 16 bytes the extension's ulid type uses
-- (the 48-bit Unix millisecond, then 80 random bits, most significant byte first), so the day
-- the extension can be installed, ALTER TABLE ... ALTER COLUMN id TYPE ulid changes no byte.
--
-- Plain SQL and PL/pgSQL on PostgreSQL 14 and later; nothing else (the randomness comes from
-- gen_random_uuid()). Any user who may create functions in a schema can install it there:
--   psql -d mydb -v ON_ERROR_STOP=1 -f ulid_portable.sql                       (first schema of the search_path)
--   psql -d mydb -v ON_ERROR_STOP=1 -c 'SET search_path = app' -f ulid_portable.sql   (schema app)
-- Install it as the owner of a schema in which no other role can create objects, and not as a
-- superuser where another role will do: whoever can create objects in that schema could plant
-- functions of these names first. The file installs once per schema: if a function of one of
-- these names already exists there, it stops before creating anything and says whose it is
-- (CREATE OR REPLACE would keep a planted function's owner, who could change its body back
-- later). Every function runs with search_path = pg_catalog, pg_temp, so objects in other
-- schemas cannot change what it does, and reads its text input in the "C" collation, whatever
-- the caller's. Their names differ from the extension's, so both can live in one database.
--
--   gen_ulid_uuid()                  a new ULID: the clock's millisecond now, 80 random bits (as the
--                                    extension's gen_ulid(): not ordered within a millisecond)
--   gen_ulid_uuid(timestamptz)       a new ULID for that instant's millisecond
--   ulid_uuid_to_text(uuid)          the 26-character text form
--   ulid_uuid_from_text(text)        the uuid of a 26-character text form; the errors of ulid_in
--   ulid_uuid_timestamp(uuid)        the millisecond in the id, as a timestamptz

-- Stop, before creating anything, if a function of one of these names is already in the target
-- schema: another role's (it planted it) or the installer's own (already installed). Names are
-- qualified, so that nothing found through the caller's search_path runs here.
DO $check$
DECLARE
    existing record;
BEGIN
    FOR existing IN
        SELECT p.oid::pg_catalog.regprocedure AS function, pg_catalog.pg_get_userbyid(p.proowner) AS owner,
               pg_catalog.pg_get_userbyid(p.proowner) OPERATOR(pg_catalog.=) CURRENT_USER AS mine
        FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
        WHERE n.nspname OPERATOR(pg_catalog.=) pg_catalog.current_schema()
          AND p.proname OPERATOR(pg_catalog.=) ANY ('{gen_ulid_uuid,ulid_uuid_to_text,ulid_uuid_from_text,ulid_uuid_timestamp}'::pg_catalog.name[])
    LOOP
        IF existing.mine THEN
            RAISE EXCEPTION 'ulid_portable.sql is already installed in schema "%": function % exists',
                    pg_catalog.current_schema(), existing.function
                USING ERRCODE = 'duplicate_function',
                      HINT = 'Nothing was changed. The file installs once per schema; see the README to move an install to a newer version of it.';
        END IF;
        RAISE EXCEPTION 'function % already exists in schema "%" and belongs to role "%"',
                existing.function, pg_catalog.current_schema(), existing.owner
            USING ERRCODE = 'duplicate_function',
                  HINT = 'Nothing was changed. Installing over it would leave that role its owner, free to change what it runs. Drop it, or install into a schema in which only you can create objects.';
    END LOOP;
END
$check$;

-- gen_random_uuid()'s bits are random but for the version (4 bits) and the variant (2 bits). Its
-- text form is xxxxxxxx-xxxx-4xxx-Vxxx-yyyyyyyyyyyy: without characters 9 to 24, 20 random hex
-- digits, the 80 random bits of the ULID after its 12 hex digits of milliseconds.

CREATE FUNCTION gen_ulid_uuid() RETURNS uuid
    LANGUAGE plpgsql VOLATILE PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    now_ms constant bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
BEGIN
    IF now_ms < 0 OR now_ms > 281474976710655 THEN
        RAISE EXCEPTION 'the system clock is outside the range of type ulid'
            USING ERRCODE = 'datetime_field_overflow';
    END IF;
    RETURN (lpad(to_hex(now_ms), 12, '0') || overlay(gen_random_uuid()::text PLACING '' FROM 9 FOR 16))::uuid;
END
$$;

CREATE FUNCTION gen_ulid_uuid(at timestamptz) RETURNS uuid
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF NOT isfinite(at) OR at < '1970-01-01 00:00:00+00' OR at >= '10889-08-02 05:31:50.656+00' THEN
        RAISE EXCEPTION 'timestamp out of range for type ulid: "%"', at
            USING ERRCODE = 'datetime_field_overflow',
                  HINT = 'A ulid holds instants from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
    END IF;
    RETURN (lpad(to_hex(floor(extract(epoch FROM at) * 1000)::bigint), 12, '0')
            || overlay(gen_random_uuid()::text PLACING '' FROM 9 FOR 16))::uuid;
END
$$;

-- The 128 bits with two zero bits in front are 26 groups of 5, one Crockford digit each.
CREATE FUNCTION ulid_uuid_to_text(id uuid) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
    SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substring(bits FROM 5 * k + 1 FOR 5)::int + 1, 1), ''
                      ORDER BY k)
    FROM (SELECT B'00' || ('x' || replace(id::text, '-', ''))::bit(128)) AS v(bits),
         generate_series(0, 25) AS k
$$;

-- Accepts what ulid_in accepts (26 Crockford digits, either case, the first at most 7) and
-- rejects the rest with ulid_in's SQLSTATE (22P02) and message, word for word. Like ulid_in, the
-- message quotes at most 64 characters of the input; a longer one is cut there, with "..." and
-- its length in characters, and only what the message shows is decoded or converted.
CREATE FUNCTION ulid_uuid_from_text(ulid_text text) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    -- The input in the "C" collation: the caller's collation (a nondeterministic one, say) plays
    -- no part in how it is read. No expression below uses ulid_text itself.
    input constant text COLLATE "C" := ulid_text;
    digits constant text COLLATE "C" := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    -- Upper case without the locale's help: the digits' lower-case letters only.
    upper_text constant text COLLATE "C" := translate(input, 'abcdefghjkmnpqrstvwxyz', 'ABCDEFGHJKMNPQRSTVWXYZ');
    bad text COLLATE "C" := substring(upper_text FROM '[^0-9A-HJKMNP-TV-Z]');
    sql_ascii constant boolean := current_setting('server_encoding') = 'SQL_ASCII';
    -- Not UTF-8 (and not SQL_ASCII): the message names every non-ASCII character by its code
    -- point, <U+00C4>, in ASCII, which reads the same in every encoding.
    escaping constant boolean := current_setting('server_encoding') NOT IN ('UTF8', 'SQL_ASCII');
    -- How many characters of the input the message quotes.
    quoted constant int := 64;
    place int;
    bytes bytea;
    at int;
    size int;
    lead int;
    follower int;
    code_point int;
    emitted int;
    hex text COLLATE "C";
    shown text COLLATE "C" := left(input, quoted);    -- the input as the message shows it
    cut boolean := length(input) > quoted;
    problem text COLLATE "C";
BEGIN
    IF bad IS NULL THEN
        IF length(input) <> 26 THEN
            problem := format('expected 26 characters, found %s', length(input));
        ELSIF left(upper_text, 1) > '7' THEN
            problem := 'value out of range, the largest is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ';
        ELSE
            -- 26 digits of 5 bits: 130 bits, the first two zero; the other 128 as two words.
            RETURN (SELECT (lpad(to_hex(substring(bits FROM 3 FOR 64)::bigint), 16, '0')
                            || lpad(to_hex(substring(bits FROM 67 FOR 64)::bigint), 16, '0'))::uuid
                    FROM (SELECT string_agg((strpos(digits, substr(upper_text, i, 1)) - 1)::bit(5)::text, ''
                                            ORDER BY i)::bit(130)
                          FROM generate_series(1, 26) AS i) AS v(bits));
        END IF;
    END IF;
    IF bad IS NOT NULL OR escaping OR sql_ascii THEN
        -- Two passes over UTF-8 bytes: first the bad character (if any), then, where the message
        -- cannot show the input's characters as they are, its first characters. Only digits,
        -- which are ASCII, come before the first bad character: its place counts characters and
        -- bytes alike. ulid_in reads the input as UTF-8. SQL_ASCII stores the client's bytes
        -- unchecked, so a sequence may be invalid: then the message names the one byte, and
        -- shows U+FFFD for each invalid part (the lead byte and the followers that fit it), as
        -- Rust's String::from_utf8_lossy does; a character there is what that reading makes one.
        place := strpos(upper_text, bad);
        FOR pass IN 1 .. 2 LOOP
            CONTINUE WHEN pass = 1 AND bad IS NULL;
            EXIT WHEN pass = 2 AND NOT (escaping OR sql_ascii);
            IF pass = 1 THEN
                bytes := CASE WHEN sql_ascii THEN convert_to(substr(input, place, 4), 'SQL_ASCII')
                              ELSE convert_to(substr(input, place, 1), 'UTF8') END;
            ELSE
                -- At most 4 bytes a character (and the followers of a last one that the window cut).
                bytes := CASE WHEN sql_ascii THEN convert_to(substr(input, 1, 4 * quoted + 3), 'SQL_ASCII')
                              ELSE convert_to(left(input, quoted), 'UTF8') END;
                shown := '';
                emitted := 0;
            END IF;
            at := 1;
            WHILE at <= length(bytes) LOOP
                EXIT WHEN pass = 2 AND emitted = quoted;
                lead := get_byte(bytes, at - 1);
                size := CASE WHEN lead < 128 THEN 1 WHEN lead BETWEEN 194 AND 223 THEN 2
                             WHEN lead BETWEEN 224 AND 239 THEN 3 WHEN lead BETWEEN 240 AND 244 THEN 4
                             ELSE 0 END;
                code_point := CASE size WHEN 1 THEN lead WHEN 2 THEN lead - 192 WHEN 3 THEN lead - 224
                                        WHEN 4 THEN lead - 240 END;
                FOR k IN 1 .. size - 1 LOOP
                    follower := CASE WHEN at + k <= length(bytes) THEN get_byte(bytes, at + k - 1) END;
                    -- No overlong forms, no surrogates, nothing above U+10FFFF.
                    IF follower IS NULL
                            OR follower < (CASE WHEN k > 1 THEN 128 WHEN lead = 224 THEN 160
                                                WHEN lead = 240 THEN 144 ELSE 128 END)
                            OR follower > (CASE WHEN k > 1 THEN 191 WHEN lead = 237 THEN 159
                                                WHEN lead = 244 THEN 143 ELSE 191 END) THEN
                        code_point := NULL;
                        size := k;
                        EXIT;
                    END IF;
                    code_point := code_point * 64 + (follower - 128);
                END LOOP;
                size := greatest(size, 1);
                hex := upper(to_hex(coalesce(code_point, lead)));
                hex := repeat('0', CASE WHEN code_point IS NULL THEN 2 ELSE 4 END - length(hex)) || hex;
                IF pass = 1 THEN
                    bad := CASE WHEN code_point IS NULL THEN 'byte 0x' || hex
                                WHEN code_point < 32 OR code_point BETWEEN 127 AND 159 THEN 'U+' || hex
                                WHEN escaping AND code_point > 127 THEN '"<U+' || hex || '>"'
                                ELSE '"' || convert_from(substr(bytes, 1, size), CASE WHEN sql_ascii THEN 'SQL_ASCII' ELSE 'UTF8' END) || '"' END;
                    EXIT;
                END IF;
                shown := shown || CASE WHEN code_point IS NULL THEN convert_from(decode('efbfbd', 'hex'), 'SQL_ASCII')
                                       WHEN NOT escaping THEN convert_from(substr(bytes, at, size), 'SQL_ASCII')
                                       WHEN code_point < 128 THEN chr(code_point)
                                       ELSE '<U+' || hex || '>' END;
                emitted := emitted + 1;
                at := at + size;
            END LOOP;
            -- In SQL_ASCII a character may take several bytes: is there more after those shown?
            IF pass = 2 AND sql_ascii THEN
                cut := at <= octet_length(input);
            END IF;
        END LOOP;
        IF bad IS NOT NULL THEN
            problem := format('invalid character %s at position %s', bad, place);
            IF bad IN ('"I"', '"i"', '"L"', '"l"', '"O"', '"o"', '"U"', '"u"') THEN
                problem := problem || ' (Crockford base32 has no I, L, O or U)';
            END IF;
        END IF;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'invalid_text_representation',
        MESSAGE = format('invalid input syntax for type ulid: "%s%s: %s', shown,
                         CASE WHEN cut THEN format('..." (%s characters)', length(input)) ELSE '"' END,
                         problem);
END
$$;

-- The first 48 bits; whole seconds and the milliseconds added apart, so that no float rounding
-- touches them (the result is exact for every ULID, up to 10889-08-02 05:31:50.655 UTC).
CREATE FUNCTION ulid_uuid_timestamp(id uuid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
    SELECT to_timestamp(ms / 1000) + (ms % 1000) * interval '1 millisecond'
    FROM (SELECT ('x' || left(replace(id::text, '-', ''), 12))::bit(48)::bigint) AS t(ms)
$$;

COMMENT ON FUNCTION gen_ulid_uuid() IS 'a new ULID as a uuid (the bytes of the ulid extension''s type): the clock''s millisecond now and 80 random bits';
COMMENT ON FUNCTION gen_ulid_uuid(timestamptz) IS 'a new ULID as a uuid for the millisecond of the given instant; 22008 outside 1970-01-01 .. 10889-08-02';
COMMENT ON FUNCTION ulid_uuid_to_text(uuid) IS 'the 26-character Crockford base32 text of a ULID stored as uuid';
COMMENT ON FUNCTION ulid_uuid_from_text(text) IS 'the uuid holding a ULID given as text; 22P02 for bad input, as the ulid type''s input';
COMMENT ON FUNCTION ulid_uuid_timestamp(uuid) IS 'the millisecond of a ULID stored as uuid';
