-- Helpers shared by the tests that follow (pg_regress runs them in one database).
-- pg_regress already ran CREATE EXTENSION ulid here (--load-extension).

-- The SQLSTATE and message of an error, or 'ok': lets a table of bad inputs show each error.
CREATE FUNCTION sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE query;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

-- The 80-bit randomness of a ulid as a number, to check increments.
CREATE FUNCTION random_part(u ulid) RETURNS numeric LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT trunc(sum(get_byte(u::bytea, i)::numeric * 256::numeric ^ (15 - i)))
    FROM generate_series(6, 15) AS i
$$;

-- A connection string for a new session on this server (dblink tests open fresh backends).
CREATE FUNCTION this_server() RETURNS text LANGUAGE sql STABLE AS $$
    SELECT format('host=%s port=%s dbname=%s user=%s',
                  split_part(current_setting('unix_socket_directories'), ',', 1),
                  current_setting('port'), current_database(), current_user)
$$;

SELECT sqlstate_of('SELECT 1'), sqlstate_of('SELECT 1/0');
SELECT random_part('00000000000000000000000001'), random_part('7ZZZZZZZZZZZZZZZZZZZZZZZZZ') = 2::numeric ^ 80 - 1;
