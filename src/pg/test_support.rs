//! Helpers for the in-server `#[pg_test]`s.

use pgrx::prelude::*;

/// Runs `query` and returns `"SQLSTATE: message"` of the error it raised, or `"ok"`. The query
/// runs in a PL/pgSQL exception block (a subtransaction), so the test can go on afterwards. It
/// also catches `query_canceled`, which `OTHERS` leaves out: the tests that cancel another
/// session's query see that session's 57014 arrive through dblink.
pub fn sqlstate_of(query: &str) -> String {
    Spi::run(
        "CREATE OR REPLACE FUNCTION pg_temp.sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
         BEGIN EXECUTE query; RETURN 'ok';
         EXCEPTION WHEN query_canceled OR OTHERS THEN RETURN SQLSTATE || ': ' || SQLERRM; END $$",
    )
    .unwrap();
    Spi::get_one_with_args::<String>("SELECT pg_temp.sqlstate_of($1)", &[query.into()])
        .unwrap()
        .unwrap()
}

/// The error `query` raised, as `"SQLSTATE: message | DETAIL: detail | HINT: hint"` (the parts
/// that are there), or `"ok"`.
pub fn error_of(query: &str) -> String {
    Spi::run(
        "CREATE OR REPLACE FUNCTION pg_temp.error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
         DECLARE state text; message text; detail text; hint text;
         BEGIN EXECUTE query; RETURN 'ok';
         EXCEPTION WHEN query_canceled OR OTHERS THEN
             GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                                     detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
             RETURN concat_ws(' | ', state || ': ' || message, 'DETAIL: ' || nullif(detail, ''),
                              'HINT: ' || nullif(hint, ''));
         END $$",
    )
    .unwrap();
    Spi::get_one_with_args::<String>("SELECT pg_temp.error_of($1)", &[query.into()])
        .unwrap()
        .unwrap()
}

/// Serializes the in-server tests that read or move the generator state a database's sessions
/// share (`gen_server_monotonic_ulid()`, `gen_ulidflake()`): pgrx runs the tests at once, in
/// sessions of one database, and one test's planted state would be another's surprise. Held
/// until the calling test's transaction ends.
pub fn lock_shared_state() {
    Spi::run("SELECT pg_advisory_xact_lock(hashtext('ulid: shared generator state'))").unwrap();
}
