//! sqlx (Postgres, tokio): a query with parameters (`sqlx::query(...).bind(...)`, even with no
//! bind) is prepared, and its parameters and results are binary; a query without arguments
//! (`sqlx::raw_sql`, or an executor given a plain string) uses the simple protocol, whose
//! results are text. Parameters are never text: a ulid's text goes in through `$1::text::ulid`
//! (a `&str` is bound as text) and comes out of `id::text` or a raw_sql result.
//!
//! sqlx checks a column's type with `Type::compatible` before decoding it; a
//! `PgTypeInfo::with_name` is matched by name against the column's type, which sqlx looks up in
//! pg_type once per connection, when a prepared statement first meets it. The simple protocol
//! looks nothing up: there a type the connection has not met yet is known by its OID alone, and
//! the check is skipped (any Decode reads it: a String gets the text); once met, the check is
//! made (a String is refused a ulid column). The recipe's types pass both ways.

use crate::{check, flake_text, Res, Server};
use crate::{
    BAD_TEXT_FLAKE, BAD_TEXT_FLAKE_MESSAGE, BAD_TEXT_ULID, BAD_TEXT_ULID_MESSAGE, DATABASE,
};
use crate::{DIGITS_FLAKE, DIGITS_FLAKE_AS_INT, FLAKE, FLAKE_AS_INT, LARGEST_FLAKE, LARGEST_ULID};
use crate::{
    NEGATIVE_FLAKE_MESSAGE, SHORT_BINARY_ULID_MESSAGE, SHORT_TEXT_ULID, SHORT_TEXT_ULID_MESSAGE,
};
use crate::{ULID, ULID_AS_UUID};

// recipe:begin sqlx
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgTypeInfo, PgValueFormat, PgValueRef, Postgres};
use sqlx::{Decode, Encode, PgExecutor, Type};
use ulid::Ulid;

// sqlx decodes a column only into a Rust type compatible with its Postgres type, and the orphan
// rule keeps us from implementing its traits on ulid::Ulid or i64 for our types: so two small
// newtypes, each naming its type (sqlx looks the OID up by name). A ulid travels as its 16 bytes
// (big-endian, as uuid), a ulidflake as the 8 bytes of a bigint; the results of a query without
// arguments (sqlx::raw_sql) are text, which the ulid crate parses.
pub struct DbUlid(pub Ulid);
pub struct DbUlidFlake(pub i64);

impl Type<Postgres> for DbUlid {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("ulid")
    }
}

impl Encode<'_, Postgres> for DbUlid {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        buf.extend_from_slice(&self.0.to_bytes());
        Ok(IsNull::No)
    }
}

impl<'r> Decode<'r, Postgres> for DbUlid {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(DbUlid(match value.format() {
            PgValueFormat::Binary => Ulid::from_bytes(value.as_bytes()?.try_into()?),
            PgValueFormat::Text => Ulid::from_string(value.as_str()?)?,
        }))
    }
}

impl Type<Postgres> for DbUlidFlake {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("ulidflake")
    }
}

impl Encode<'_, Postgres> for DbUlidFlake {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        buf.extend_from_slice(&self.0.to_be_bytes());
        Ok(IsNull::No)
    }
}

impl<'r> Decode<'r, Postgres> for DbUlidFlake {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(DbUlidFlake(match value.format() {
            PgValueFormat::Binary => i64::from_be_bytes(value.as_bytes()?.try_into()?),
            PgValueFormat::Text => {
                // 13 Crockford characters, not decimal: decode them as the end of a ulid's 26.
                let padded = format!("0000000000000{}", value.as_str()?);
                Ulid::from_string(&padded)?.0.try_into()?
            }
        }))
    }
}

// For a table events (id ulid, flake ulidflake): wrap to write, unwrap (.0) to read; a NULL is
// an Option. A bad id is a sqlx::Error::Database whose code() is 22P02 (text) or 22P03.
pub async fn add_event(db: impl PgExecutor<'_>, id: Ulid, flake: Option<i64>) -> sqlx::Result<u64> {
    let sql = "INSERT INTO events (id, flake) VALUES ($1, $2)";
    let done = sqlx::query(sql)
        .bind(DbUlid(id))
        .bind(flake.map(DbUlidFlake))
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

pub async fn get_event(
    db: impl PgExecutor<'_>,
    id: Ulid,
) -> sqlx::Result<Option<(Ulid, Option<i64>)>> {
    let sql = "SELECT id, flake FROM events WHERE id = $1";
    let row: Option<(DbUlid, Option<DbUlidFlake>)> = sqlx::query_as(sql)
        .bind(DbUlid(id))
        .fetch_optional(db)
        .await?;
    Ok(row.map(|(id, flake)| (id.0, flake.map(|f| f.0))))
}

// Without the glue, cast in SQL: read id::uuid as a uuid::Uuid (sqlx's "uuid" feature;
// Ulid::from(uuid) with the ulid crate's "uuid" feature) and send one as $1::uuid::ulid. A
// ulidflake is flake::bigint and $2::bigint::ulidflake (in an INSERT, $2::bigint is enough: the
// cast is an assignment cast).
pub async fn get_event_by_cast(
    db: impl PgExecutor<'_>,
    id: Ulid,
) -> sqlx::Result<Option<(Ulid, Option<i64>)>> {
    let sql = "SELECT id::uuid, flake::bigint FROM events WHERE id = $1::uuid::ulid";
    let row: Option<(uuid::Uuid, Option<i64>)> = sqlx::query_as(sql)
        .bind(uuid::Uuid::from(id))
        .fetch_optional(db)
        .await?;
    Ok(row.map(|(id, flake)| (Ulid::from(id), flake)))
}
// recipe:end

use sqlx::postgres::{PgConnectOptions, PgRow};
use sqlx::{Connection, Executor, PgConnection, Row};
use uuid::Uuid;

/// Test-only: any bytes, sent in binary as a ulid.
struct RawUlid(Vec<u8>);

impl Type<Postgres> for RawUlid {
    fn type_info() -> PgTypeInfo {
        PgTypeInfo::with_name("ulid")
    }
}

impl Encode<'_, Postgres> for RawUlid {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        buf.extend_from_slice(&self.0);
        Ok(IsNull::No)
    }
}

/// The SQLSTATE and message of a failed query, or "accepted".
fn db_error<T>(result: sqlx::Result<T>) -> String {
    match result {
        Ok(_) => "accepted".into(),
        Err(sqlx::Error::Database(db)) => {
            format!("{}: {}", db.code().unwrap_or_default(), db.message())
        }
        Err(e) => format!("not a server error: {e}"),
    }
}

/// sqlx's message when the Rust type T (declared as the SQL type `as_sql`) does not decode `pg`.
fn mismatched<T>(as_sql: &str, pg: &str) -> String {
    let rust = std::any::type_name::<T>();
    format!(
        "mismatched types; Rust type `{rust}` (as SQL type `{as_sql}`) \
         is not compatible with SQL type `{pg}`"
    )
}

/// The error of a decode (a type mismatch, or the glue's error), as text.
fn decode_error<T>(result: sqlx::Result<T>) -> String {
    match result {
        Ok(_) => "decoded".into(),
        Err(sqlx::Error::ColumnDecode { source, .. }) => source.to_string(),
        Err(e) => format!("not a decode error: {e}"),
    }
}

async fn usable(conn: &mut PgConnection, label: &str) -> Res {
    let one: i32 = sqlx::query_scalar("SELECT 1").fetch_one(&mut *conn).await?;
    check(&format!("{label}: connection usable afterwards"), one, 1);
    Ok(())
}

pub async fn run(server: &Server) -> Res {
    // A host that starts with '/' is a socket directory, as for libpq.
    let options = PgConnectOptions::new()
        .host(&server.host)
        .port(server.port)
        .username(&server.user)
        .database(DATABASE);
    let mut connection = PgConnection::connect_with(&options).await?;
    let conn = &mut connection;
    let socket: bool = sqlx::query_scalar("SELECT inet_server_addr() IS NULL")
        .fetch_one(&mut *conn)
        .await?;
    check(
        "connected through a Unix socket if PGHOST is a directory",
        socket,
        server.host.starts_with('/'),
    );
    let ulid = Ulid::from_string(ULID)?;
    let uuid = Uuid::parse_str(ULID_AS_UUID)?;

    // Without glue sqlx refuses the types: its Uuid and i64 decode uuid and bigint only.
    let row = sqlx::query("SELECT $1::text::ulid, $2::text::ulidflake")
        .bind(ULID)
        .bind(FLAKE)
        .fetch_one(&mut *conn)
        .await?;
    check(
        "no glue: ulid as uuid::Uuid",
        decode_error(row.try_get::<Uuid, _>(0)),
        mismatched::<Uuid>("UUID", "ulid"),
    );
    check(
        "no glue: ulidflake as i64",
        decode_error(row.try_get::<i64, _>(1)),
        mismatched::<i64>("INT8", "ulidflake"),
    );
    // The glue is compatible with its own type only.
    let row = sqlx::query("SELECT $1::uuid, 1::bigint")
        .bind(uuid)
        .fetch_one(&mut *conn)
        .await?;
    check(
        "glue: a uuid column is not read as a DbUlid",
        decode_error(row.try_get::<DbUlid, _>(0)),
        mismatched::<DbUlid>("ulid", "UUID"),
    );
    check(
        "glue: a bigint column is not read as a DbUlidFlake",
        decode_error(row.try_get::<DbUlidFlake, _>(1)),
        mismatched::<DbUlidFlake>("ulidflake", "INT8"),
    );
    // The test's raw parameter (for the 15-byte ulid below) works with 16 bytes.
    let row = sqlx::query("SELECT $1::ulid::text")
        .bind(RawUlid(vec![0; 16]))
        .fetch_one(&mut *conn)
        .await?;
    check(
        "a raw 16-byte ulid parameter",
        row.get::<String, _>(0),
        "0".repeat(26),
    );

    // Results (binary): a ulid is the Ulid with its value, a ulidflake the i64 with its value.
    let row = sqlx::query("SELECT $1::text::ulid, $2::text::ulidflake")
        .bind(ULID.to_lowercase())
        .bind(FLAKE)
        .fetch_one(&mut *conn)
        .await?;
    check(
        "query results are binary",
        row.try_get_raw(0)?.format(),
        PgValueFormat::Binary,
    );
    check(
        "binary results",
        (row.get::<DbUlid, _>(0).0, row.get::<DbUlidFlake, _>(1).0),
        (ulid, FLAKE_AS_INT),
    );
    check(
        "the ulid is the uuid with the same bytes",
        row.get::<DbUlid, _>(0).0,
        Ulid::from(uuid),
    );
    let row = sqlx::query(
        "SELECT $1::text::ulid, $2::text::ulidflake, \
         '00000000000000000000000001'::ulid, '0000000000001'::ulidflake",
    )
    .bind(LARGEST_ULID)
    .bind(LARGEST_FLAKE)
    .fetch_one(&mut *conn)
    .await?;
    check(
        "extremes and byte order",
        (
            row.get::<DbUlid, _>(0).0 .0,
            row.get::<DbUlidFlake, _>(1).0,
            row.get::<DbUlid, _>(2).0 .0,
            row.get::<DbUlidFlake, _>(3).0,
        ),
        (u128::MAX, i64::MAX, 1, 1),
    );
    let rows: Vec<(DbUlid, Uuid, String, DbUlidFlake, i64)> = sqlx::query_as(
        "SELECT id, id::uuid, id::text, f, f::bigint FROM \
         (SELECT gen_ulid() AS id, gen_ulidflake() AS f FROM generate_series(1, 1000)) s",
    )
    .fetch_all(&mut *conn)
    .await?;
    check("1000 generated values", rows.len(), 1000);
    check(
        "1000 generated values read as their uuid, text and bigint",
        rows.iter().all(|(id, u, text, f, b)| {
            id.0 == Ulid::from(*u) && id.0.to_string() == *text && f.0 == *b
        }),
        true,
    );

    // Parameters in INSERT and WHERE, NULLs both ways.
    sqlx::raw_sql("DROP TABLE IF EXISTS t, events")
        .execute(&mut *conn)
        .await?;
    sqlx::raw_sql("CREATE TABLE t (id ulid PRIMARY KEY, f ulidflake, note text)")
        .execute(&mut *conn)
        .await?;
    for i in 0..100u64 {
        sqlx::query("INSERT INTO t VALUES ($1, $2, $3)")
            .bind(DbUlid(Ulid((i * 7919 + 1) as u128)))
            .bind(Some(DbUlidFlake((i * 104729) as i64)))
            .bind(format!("row {i}"))
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query("INSERT INTO t VALUES ($1, $2, $3)")
        .bind(DbUlid(ulid))
        .bind(None::<DbUlidFlake>)
        .bind("nulls")
        .execute(&mut *conn)
        .await?;
    check(
        "INSERT with parameters",
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM t")
            .fetch_one(&mut *conn)
            .await?,
        101,
    );
    check(
        "WHERE with a ulid parameter",
        sqlx::query_scalar::<_, String>("SELECT note FROM t WHERE id = $1")
            .bind(DbUlid(Ulid(42 * 7919 + 1)))
            .fetch_one(&mut *conn)
            .await?,
        "row 42".into(),
    );
    check(
        "WHERE with a ulidflake parameter",
        sqlx::query_scalar::<_, String>("SELECT note FROM t WHERE f = $1")
            .bind(DbUlidFlake(42 * 104729))
            .fetch_one(&mut *conn)
            .await?,
        "row 42".into(),
    );
    let row: (String, String) =
        sqlx::query_as("SELECT id::text, f::text FROM t WHERE note = 'row 1'")
            .fetch_one(&mut *conn)
            .await?;
    check(
        "inserted values read back as text",
        row,
        (Ulid(7920).to_string(), flake_text(104729)),
    );
    check(
        "a NULL ulidflake inserted",
        sqlx::query_scalar::<_, String>("SELECT note FROM t WHERE f IS NULL")
            .fetch_one(&mut *conn)
            .await?,
        "nulls".into(),
    );
    let row = sqlx::query("SELECT id, f, NULL::ulid FROM t WHERE note = 'nulls'")
        .fetch_one(&mut *conn)
        .await?;
    check(
        "NULLs read as None, the ulid as Some",
        (
            row.get::<Option<DbUlid>, _>(0).map(|u| u.0),
            row.get::<Option<DbUlidFlake>, _>(1).map(|f| f.0),
            row.get::<Option<DbUlid>, _>(2).map(|u| u.0),
        ),
        (Some(ulid), None, None),
    );
    let row: (bool, bool) = sqlx::query_as("SELECT $1::ulid IS NULL, $2::ulidflake IS NULL")
        .bind(None::<DbUlid>)
        .bind(None::<DbUlidFlake>)
        .fetch_one(&mut *conn)
        .await?;
    check("NULL parameters", row, (true, true));
    let row: (String, String) = sqlx::query_as("SELECT $1::ulid::text, $2::ulidflake::text")
        .bind(DbUlid(Ulid(u128::MAX)))
        .bind(DbUlidFlake(i64::MAX))
        .fetch_one(&mut *conn)
        .await?;
    check(
        "the largest values as parameters",
        row,
        (LARGEST_ULID.into(), LARGEST_FLAKE.into()),
    );

    // The recipe's functions.
    sqlx::raw_sql("CREATE TABLE events (id ulid PRIMARY KEY, flake ulidflake)")
        .execute(&mut *conn)
        .await?;
    let other = Ulid::from_string(LARGEST_ULID)?;
    check(
        "recipe: add_event",
        add_event(&mut *conn, ulid, Some(FLAKE_AS_INT)).await?,
        1,
    );
    check(
        "recipe: add_event with a NULL",
        add_event(&mut *conn, other, None).await?,
        1,
    );
    check(
        "recipe: get_event",
        get_event(&mut *conn, ulid).await?,
        Some((ulid, Some(FLAKE_AS_INT))),
    );
    check(
        "recipe: get_event with a NULL",
        get_event(&mut *conn, other).await?,
        Some((other, None)),
    );
    check(
        "recipe: get_event of no row",
        get_event(&mut *conn, Ulid(7)).await?,
        None,
    );
    check(
        "recipe: stored as sent",
        sqlx::query_scalar::<_, String>(
            "SELECT id::text || ' ' || flake::text FROM events WHERE flake IS NOT NULL",
        )
        .fetch_one(&mut *conn)
        .await?,
        format!("{ULID} {FLAKE}"),
    );
    check(
        "recipe: get_event_by_cast",
        get_event_by_cast(&mut *conn, ulid).await?,
        Some((ulid, Some(FLAKE_AS_INT))),
    );
    check(
        "recipe: get_event_by_cast with a NULL",
        get_event_by_cast(&mut *conn, other).await?,
        Some((other, None)),
    );

    // The rest of "cast in SQL": i64 in WHERE, uuid::Uuid and i64 in an INSERT, with no glue.
    let found: Uuid =
        sqlx::query_scalar("SELECT id::uuid FROM events WHERE flake = $1::bigint::ulidflake")
            .bind(FLAKE_AS_INT)
            .fetch_one(&mut *conn)
            .await?;
    check("cast: WHERE with a bigint", Ulid::from(found), ulid);
    let cast_id = Ulid(12345);
    sqlx::query("INSERT INTO events VALUES ($1::uuid, $2::bigint)")
        .bind(Uuid::from(cast_id))
        .bind(DIGITS_FLAKE_AS_INT)
        .execute(&mut *conn)
        .await?;
    check(
        "cast: INSERT of a uuid and a bigint (assignment casts)",
        get_event(&mut *conn, cast_id).await?,
        Some((cast_id, Some(DIGITS_FLAKE_AS_INT))),
    );

    // Bad ids as parameters: 22P02 from the input functions (text, through a cast: sqlx sends
    // every parameter in binary), 22P03 from the receive functions (a ulid of 15 bytes, a
    // negative ulidflake).
    check(
        "bad text ulid through ::text",
        db_error(
            sqlx::query("SELECT $1::text::ulid")
                .bind(BAD_TEXT_ULID)
                .execute(&mut *conn)
                .await,
        ),
        format!("22P02: {BAD_TEXT_ULID_MESSAGE}"),
    );
    usable(conn, "bad text ulid").await?;
    check(
        "bad text ulidflake through ::text",
        db_error(
            sqlx::query("SELECT $1::text::ulidflake")
                .bind(BAD_TEXT_FLAKE)
                .execute(&mut *conn)
                .await,
        ),
        format!("22P02: {BAD_TEXT_FLAKE_MESSAGE}"),
    );
    usable(conn, "bad text ulidflake").await?;
    check(
        "a &str bound where a ulid is expected (text cast)",
        db_error(
            sqlx::query("SELECT $1::ulid")
                .bind(SHORT_TEXT_ULID)
                .execute(&mut *conn)
                .await,
        ),
        format!("22P02: {SHORT_TEXT_ULID_MESSAGE}"),
    );
    usable(conn, "short text ulid").await?;
    check(
        "15-byte ulid in binary",
        db_error(
            sqlx::query("INSERT INTO t (id, note) VALUES ($1, '15 bytes')")
                .bind(RawUlid(vec![1; 15]))
                .execute(&mut *conn)
                .await,
        ),
        format!("22P03: {SHORT_BINARY_ULID_MESSAGE}"),
    );
    usable(conn, "15-byte ulid").await?;
    // sqlx caches a prepared statement by its SQL alone: the parameter types of its first
    // execution stay. "SELECT $1::ulid" was prepared above with a &str (text), so the 16 bytes
    // of a DbUlid now arrive as a text, for the text-to-ulid cast.
    let id = DbUlid(Ulid::from_bytes(*b"0123456789ABCDEF"));
    check(
        "same SQL, a DbUlid after a &str: still a text parameter",
        db_error(
            sqlx::query("SELECT $1::ulid")
                .bind(id)
                .execute(&mut *conn)
                .await,
        ),
        "22P02: invalid input syntax for type ulid: \"0123456789ABCDEF\": \
         expected 26 characters, found 16"
            .into(),
    );
    usable(conn, "a DbUlid after a &str").await?;
    check(
        "negative ulidflake in binary (the recipe's type)",
        db_error(
            sqlx::query("SELECT $1::ulidflake")
                .bind(DbUlidFlake(-1))
                .execute(&mut *conn)
                .await,
        ),
        format!("22P03: {NEGATIVE_FLAKE_MESSAGE}"),
    );
    usable(conn, "negative ulidflake").await?;
    check(
        "negative ulidflake in an INSERT",
        db_error(add_event(&mut *conn, Ulid(99), Some(i64::MIN)).await),
        format!("22P03: {NEGATIVE_FLAKE_MESSAGE}"),
    );
    usable(conn, "negative ulidflake in an INSERT").await?;

    // Text: the results of raw_sql (simple protocol), on a new connection (which has not met
    // the types yet: no type check) and on this one (which has: the check is made). The recipe's
    // Decode parses the text either way.
    let mut fresh = PgConnection::connect_with(&options).await?;
    let sql = "SELECT id, f FROM t WHERE note IN ('row 1', 'nulls') ORDER BY note";
    let rows: Vec<PgRow> = sqlx::raw_sql(sql).fetch_all(&mut fresh).await?;
    check(
        "raw_sql results are text",
        rows[1].try_get_raw(0)?.format(),
        PgValueFormat::Text,
    );
    let texts: Vec<(String, Option<String>)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    check(
        "text results, raw_sql on a new connection, read as String",
        texts,
        vec![
            (ULID.to_string(), None),
            (Ulid(7920).to_string(), Some(flake_text(104729))),
        ],
    );
    let want = vec![(ulid, None), (Ulid(7920), Some(104729))];
    let decode = |rows: &[PgRow]| -> Vec<(Ulid, Option<i64>)> {
        rows.iter()
            .map(|r| {
                (
                    r.get::<DbUlid, _>(0).0,
                    r.get::<Option<DbUlidFlake>, _>(1).map(|f| f.0),
                )
            })
            .collect()
    };
    check(
        "text results, raw_sql on a new connection, decoded by the recipe",
        decode(&rows),
        want.clone(),
    );
    fresh.close().await?;
    let rows: Vec<PgRow> = sqlx::raw_sql(sql).fetch_all(&mut *conn).await?;
    check(
        "text results, raw_sql once the types are known, are checked: not a String",
        decode_error(rows[0].try_get::<String, _>(0)),
        mismatched::<String>("TEXT", "ulid"),
    );
    check(
        "text results, raw_sql once the types are known, decoded by the recipe",
        decode(&rows),
        want,
    );
    // A plain string given to an executor is a query without arguments too.
    let row = conn
        .fetch_one("SELECT id FROM events WHERE flake IS NULL")
        .await?;
    check(
        "a plain string's results are text, decoded by the recipe",
        (row.try_get_raw(0)?.format(), row.get::<DbUlid, _>(0).0),
        (PgValueFormat::Text, Ulid::from_string(LARGEST_ULID)?),
    );
    let row = sqlx::raw_sql(
        "SELECT '7zzzzzzzzzzzzzzzzzzzzzzzzz'::ulid, '0000000000123'::ulidflake, \
         '7ZZZZZZZZZZZZ'::ulidflake, '0000000000123'::ulidflake::text",
    )
    .fetch_one(&mut *conn)
    .await?;
    check(
        "text extremes decoded by the recipe (Crockford, not decimal)",
        (
            row.get::<DbUlid, _>(0).0 .0,
            row.get::<DbUlidFlake, _>(1).0,
            row.get::<DbUlidFlake, _>(2).0,
            row.get::<String, _>(3),
        ),
        (
            u128::MAX,
            DIGITS_FLAKE_AS_INT,
            i64::MAX,
            DIGITS_FLAKE.to_string(),
        ),
    );
    connection.close().await?;
    Ok(())
}
