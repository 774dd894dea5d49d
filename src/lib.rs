//! `ulid`: sortable identifier types for PostgreSQL.
//!
//! Layout:
//! - `codec`: the formats as pure functions (Crockford base32, the ULID value, time conversions);
//! - `generator`: generator state machines, clock and randomness, also pure;
//! - `pg`: the pgrx glue, one module per SQL type;
//! - `../sql/*.sql`: every SQL declaration, grouped by concern, in install order below.

mod codec;
mod generator;
mod pg;

::pgrx::pg_module_magic!(name, version);

// The install script is these files, in this order. Each names the one before it.
::pgrx::extension_sql_file!("../sql/ulid_type.sql", bootstrap);
::pgrx::extension_sql_file!("../sql/ulid_operators.sql", requires = ["ulid_type"]);
::pgrx::extension_sql_file!("../sql/ulid_btree.sql", requires = ["ulid_operators"]);
::pgrx::extension_sql_file!("../sql/ulid_hash.sql", requires = ["ulid_btree"]);
::pgrx::extension_sql_file!("../sql/ulid_brin.sql", requires = ["ulid_hash"]);
::pgrx::extension_sql_file!("../sql/ulid_casts.sql", requires = ["ulid_brin"]);
::pgrx::extension_sql_file!("../sql/ulid_functions.sql", requires = ["ulid_casts"]);
::pgrx::extension_sql_file!(
    "../sql/ulid_pgx_ulid_aliases.sql",
    requires = ["ulid_functions"]
);
::pgrx::extension_sql_file!(
    "../sql/ulidflake_type.sql",
    requires = ["ulid_pgx_ulid_aliases"]
);
::pgrx::extension_sql_file!(
    "../sql/ulidflake_operators.sql",
    requires = ["ulidflake_type"]
);
::pgrx::extension_sql_file!(
    "../sql/ulidflake_btree.sql",
    requires = ["ulidflake_operators"]
);
::pgrx::extension_sql_file!("../sql/ulidflake_hash.sql", requires = ["ulidflake_btree"]);
::pgrx::extension_sql_file!("../sql/ulidflake_brin.sql", requires = ["ulidflake_hash"]);
::pgrx::extension_sql_file!("../sql/ulidflake_casts.sql", requires = ["ulidflake_brin"]);
::pgrx::extension_sql_file!(
    "../sql/ulidflake_functions.sql",
    requires = ["ulidflake_casts"]
);

/// Runs when a process loads the library (in the postmaster, if it is preloaded).
#[pgrx::pg_guard]
pub extern "C-unwind" fn _PG_init() {
    pg::backend::init();
    pg::shared_state::init();
    pg::ulidflake::init();
    pg::compat::reserve_guc_prefix(c"ulid");
}

/// Required by `cargo pgrx test`.
#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}

    #[must_use]
    pub fn postgresql_conf_options() -> Vec<&'static str> {
        // gen_ulidflake() and gen_server_monotonic_ulid() keep their state in shared memory.
        vec!["shared_preload_libraries = 'ulid'"]
    }
}
