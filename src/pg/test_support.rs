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
