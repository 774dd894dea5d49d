-- pg_temp.outcome(expression): 'ok' if SELECT expression succeeds, else the error's SQLSTATE,
-- message and hint, to compare two ways of doing one thing. For tests/integration/portable.sh.
CREATE FUNCTION pg_temp.outcome(expression text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    state text;
    message text;
    hint text;
BEGIN
    EXECUTE 'SELECT ' || expression;
    RETURN 'ok';
EXCEPTION WHEN others THEN
    GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, hint = PG_EXCEPTION_HINT;
    RETURN state || ' ' || message || coalesce(' HINT: ' || nullif(hint, ''), '');
END
$$;
