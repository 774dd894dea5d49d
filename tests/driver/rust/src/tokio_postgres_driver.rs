//! tokio-postgres: typed parameters and results are always binary (it asks for binary results
//! in every Bind); it checks each column's type with `FromSql::accepts` and each parameter's
//! type with `ToSql::accepts` before converting. The extension's types have no fixed OID:
//! tokio-postgres looks an unknown OID up in pg_type (once per connection) and hands the glue a
//! `Type` whose `name()` is "ulid" or "ulidflake".
//!
//! Text: `simple_query` returns every value as its text (`Option<&str>`); a `ToSql` may send a
//! parameter as text (`encode_format` returning `Format::Text`, used by a test type below), and
//! `$1::text::ulid` with a `&str` goes through the cast; results of `query` are never text, so
//! a ulid's text comes from `id::text`.

use crate::{check, flake_text, Res, Server};
use crate::{
    BAD_TEXT_FLAKE, BAD_TEXT_FLAKE_MESSAGE, BAD_TEXT_ULID, BAD_TEXT_ULID_MESSAGE, DATABASE,
};
use crate::{DIGITS_FLAKE, DIGITS_FLAKE_AS_INT, FLAKE, FLAKE_AS_INT, LARGEST_FLAKE, LARGEST_ULID};
use crate::{
    NEGATIVE_FLAKE_MESSAGE, SHORT_BINARY_ULID_MESSAGE, SHORT_TEXT_ULID, SHORT_TEXT_ULID_MESSAGE,
};
use crate::{ULID, ULID_AS_UUID};

// recipe:begin tokio-postgres
use bytes::BytesMut;
use std::error::Error;
use tokio_postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};
use tokio_postgres::Client;
use ulid::Ulid;

// tokio-postgres converts a value only if its Rust type accepts the column's Postgres type, and
// the orphan rule keeps us from implementing its traits on ulid::Ulid or i64 for our types: so
// two small newtypes. A ulid travels as its 16 bytes (big-endian, as uuid), a ulidflake as the
// 8 bytes of a bigint.
#[derive(Debug)]
pub struct DbUlid(pub Ulid);
#[derive(Debug)]
pub struct DbUlidFlake(pub i64);

impl<'a> FromSql<'a> for DbUlid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        Ok(DbUlid(Ulid::from_bytes(raw.try_into()?)))
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulid"
    }
}

impl ToSql for DbUlid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(&self.0.to_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulid"
    }
    to_sql_checked!();
}

impl<'a> FromSql<'a> for DbUlidFlake {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        Ok(DbUlidFlake(i64::from_be_bytes(raw.try_into()?)))
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulidflake"
    }
}

impl ToSql for DbUlidFlake {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(&self.0.to_be_bytes());
        Ok(IsNull::No)
    }
    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulidflake"
    }
    to_sql_checked!();
}

// For a table events (id ulid, flake ulidflake): wrap to write, unwrap (.0) to read; a NULL is
// an Option. A bad id is a tokio_postgres::Error whose code() is SqlState 22P02 (text) or 22P03.
pub async fn add_event(
    client: &Client,
    id: Ulid,
    flake: Option<i64>,
) -> Result<u64, tokio_postgres::Error> {
    let sql = "INSERT INTO events (id, flake) VALUES ($1, $2)";
    client
        .execute(sql, &[&DbUlid(id), &flake.map(DbUlidFlake)])
        .await
}

pub async fn get_event(
    client: &Client,
    id: Ulid,
) -> Result<Option<(Ulid, Option<i64>)>, tokio_postgres::Error> {
    let row = client
        .query_opt("SELECT id, flake FROM events WHERE id = $1", &[&DbUlid(id)])
        .await?;
    Ok(row.map(|row| {
        (
            row.get::<_, DbUlid>(0).0,
            row.get::<_, Option<DbUlidFlake>>(1).map(|f| f.0),
        )
    }))
}

// Without the glue, cast in SQL: read id::uuid as a uuid::Uuid (Ulid::from(uuid), with the ulid
// crate's "uuid" feature) or, with its "postgres" feature, as a Ulid directly (that feature reads
// uuid columns only, not ulid ones); send one as $1::uuid::ulid. A ulidflake is flake::bigint
// and $2::bigint::ulidflake (in an INSERT, $2::bigint is enough: the cast is an assignment cast).
pub async fn get_event_by_cast(
    client: &Client,
    id: Ulid,
) -> Result<Option<(Ulid, Option<i64>)>, tokio_postgres::Error> {
    let sql = "SELECT id::uuid, flake::bigint FROM events WHERE id = $1::uuid::ulid";
    let row = client.query_opt(sql, &[&id]).await?;
    Ok(row.map(|row| (row.get(0), row.get(1))))
}
// recipe:end

use tokio_postgres::error::SqlState;
use tokio_postgres::types::Format;
use tokio_postgres::{NoTls, SimpleQueryMessage};
use uuid::Uuid;

/// A connection to `dbname`: PGHOST may be a socket directory (host=/path) or a host name.
pub async fn connect(server: &Server, dbname: &str) -> Res<Client> {
    let (client, connection) = tokio_postgres::Config::new()
        .host(&server.host)
        .port(server.port)
        .user(&server.user)
        .dbname(dbname)
        .connect(NoTls)
        .await?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            eprintln!("tokio-postgres connection error: {e}");
        }
    });
    Ok(client)
}

/// Test-only: any bytes, sent in binary as a value of whatever type the server expects.
#[derive(Debug)]
struct RawBinary(Vec<u8>);

impl ToSql for RawBinary {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(&self.0);
        Ok(IsNull::No)
    }
    fn accepts(_: &Type) -> bool {
        true
    }
    to_sql_checked!();
}

/// Test-only: a string sent in the text format, for the type's input function to parse.
#[derive(Debug)]
struct RawText(&'static str);

impl ToSql for RawText {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(self.0.as_bytes());
        Ok(IsNull::No)
    }
    fn accepts(_: &Type) -> bool {
        true
    }
    fn encode_format(&self, _: &Type) -> Format {
        Format::Text
    }
    to_sql_checked!();
}

/// The query must fail with this SQLSTATE and message, and the connection must go on working.
async fn expect_db_error(
    client: &Client,
    label: &str,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
    state: SqlState,
    message: &str,
) -> Res {
    let got = match client.query(sql, params).await {
        Ok(rows) => format!("accepted, {} rows", rows.len()),
        Err(e) => match e.as_db_error() {
            Some(db) => format!("{}: {}", db.code().code(), db.message()),
            None => format!("not a server error: {e}"),
        },
    };
    check(label, got, format!("{}: {message}", state.code()));
    let one: i32 = client.query_one("SELECT 1", &[]).await?.get(0);
    check(&format!("{label}: connection usable afterwards"), one, 1);
    Ok(())
}

/// tokio-postgres' message when the Rust type T does not accept the Postgres type `pg`.
fn refused<T>(pg: &str) -> String {
    let rust = std::any::type_name::<T>();
    format!("cannot convert between the Rust type `{rust}` and the Postgres type `{pg}`")
}

/// The error of a client-side type check (tokio-postgres' WrongType), as text, or "accepted".
fn wrong_type<T>(result: Result<T, tokio_postgres::Error>) -> String {
    match result {
        Ok(_) => "accepted".into(),
        Err(e) => e.source().map_or_else(|| e.to_string(), |s| s.to_string()),
    }
}

pub async fn run(server: &Server) -> Res {
    let client = connect(server, DATABASE).await?;
    let socket: bool = client
        .query_one("SELECT inet_server_addr() IS NULL", &[])
        .await?
        .get(0);
    check(
        "connected through a Unix socket if PGHOST is a directory",
        socket,
        server.host.starts_with('/'),
    );
    let ulid = Ulid::from_string(ULID)?;

    // Without glue the driver refuses the types: its uuid and i64 accept only uuid and bigint
    // (and the ulid crate's own "postgres" feature accepts only uuid).
    let row = client
        .query_one(
            "SELECT $1::text::ulid, $2::text::ulidflake",
            &[&ULID, &FLAKE],
        )
        .await?;
    check(
        "no glue: ulid as uuid::Uuid",
        wrong_type(row.try_get::<_, Uuid>(0)),
        refused::<Uuid>("ulid"),
    );
    check(
        "no glue: ulid as ulid::Ulid (its postgres feature)",
        wrong_type(row.try_get::<_, Ulid>(0)),
        refused::<Ulid>("ulid"),
    );
    check(
        "no glue: ulidflake as i64",
        wrong_type(row.try_get::<_, i64>(1)),
        refused::<i64>("ulidflake"),
    );
    // The glue accepts its own type only, both ways.
    let row = client
        .query_one(
            "SELECT $1::uuid, 1::bigint",
            &[&Uuid::parse_str(ULID_AS_UUID)?],
        )
        .await?;
    check(
        "glue: a uuid column is not read as a DbUlid",
        wrong_type(row.try_get::<_, DbUlid>(0)),
        refused::<DbUlid>("uuid"),
    );
    check(
        "glue: a bigint column is not read as a DbUlidFlake",
        wrong_type(row.try_get::<_, DbUlidFlake>(1)),
        refused::<DbUlidFlake>("int8"),
    );
    check(
        "glue: a DbUlid is not sent as a uuid",
        wrong_type(client.query_one("SELECT $1::uuid", &[&DbUlid(ulid)]).await),
        refused::<DbUlid>("uuid"),
    );
    check(
        "glue: a DbUlidFlake is not sent as a bigint",
        wrong_type(
            client
                .query_one("SELECT $1::bigint", &[&DbUlidFlake(1)])
                .await,
        ),
        refused::<DbUlidFlake>("int8"),
    );

    // Results (binary): a ulid is the Ulid with its value, a ulidflake the i64 with its value.
    let row = client
        .query_one(
            "SELECT $1::text::ulid, $2::text::ulidflake",
            &[&ULID.to_lowercase(), &FLAKE],
        )
        .await?;
    check(
        "binary results",
        (row.get::<_, DbUlid>(0).0, row.get::<_, DbUlidFlake>(1).0),
        (ulid, FLAKE_AS_INT),
    );
    check(
        "the ulid is the uuid with the same bytes",
        row.get::<_, DbUlid>(0).0,
        Ulid::from(Uuid::parse_str(ULID_AS_UUID)?),
    );
    let row = client
        .query_one(
            "SELECT $1::text::ulid, $2::text::ulidflake, \
             '00000000000000000000000001'::ulid, '0000000000001'::ulidflake",
            &[&LARGEST_ULID, &LARGEST_FLAKE],
        )
        .await?;
    check(
        "extremes and byte order",
        (
            row.get::<_, DbUlid>(0).0 .0,
            row.get::<_, DbUlidFlake>(1).0,
            row.get::<_, DbUlid>(2).0 .0,
            row.get::<_, DbUlidFlake>(3).0,
        ),
        (u128::MAX, i64::MAX, 1, 1),
    );
    let rows = client
        .query(
            "SELECT id, id::uuid, id::text, f, f::bigint FROM \
             (SELECT gen_ulid() AS id, gen_ulidflake() AS f FROM generate_series(1, 1000)) s",
            &[],
        )
        .await?;
    check("1000 generated values", rows.len(), 1000);
    check(
        "1000 generated values read as their uuid, text and bigint",
        rows.iter().all(|r| {
            let id = r.get::<_, DbUlid>(0).0;
            id == Ulid::from(r.get::<_, Uuid>(1))
                && id.to_string() == r.get::<_, &str>(2)
                && r.get::<_, DbUlidFlake>(3).0 == r.get::<_, i64>(4)
        }),
        true,
    );

    // Parameters in INSERT and WHERE, NULLs both ways.
    client
        .batch_execute("DROP TABLE IF EXISTS t, events")
        .await?;
    client
        .batch_execute("CREATE TABLE t (id ulid PRIMARY KEY, f ulidflake, note text)")
        .await?;
    let insert = client.prepare("INSERT INTO t VALUES ($1, $2, $3)").await?;
    for i in 0..100u64 {
        let (id, f) = (
            DbUlid(Ulid((i * 7919 + 1) as u128)),
            DbUlidFlake((i * 104729) as i64),
        );
        client
            .execute(&insert, &[&id, &Some(f), &format!("row {i}")])
            .await?;
    }
    client
        .execute(&insert, &[&DbUlid(ulid), &None::<DbUlidFlake>, &"nulls"])
        .await?;
    check(
        "INSERT with parameters",
        client
            .query_one("SELECT count(*) FROM t", &[])
            .await?
            .get::<_, i64>(0),
        101,
    );
    let note = |row: tokio_postgres::Row| row.get::<_, String>(0);
    check(
        "WHERE with a ulid parameter",
        note(
            client
                .query_one(
                    "SELECT note FROM t WHERE id = $1",
                    &[&DbUlid(Ulid(42 * 7919 + 1))],
                )
                .await?,
        ),
        "row 42".into(),
    );
    check(
        "WHERE with a ulidflake parameter",
        note(
            client
                .query_one(
                    "SELECT note FROM t WHERE f = $1",
                    &[&DbUlidFlake(42 * 104729)],
                )
                .await?,
        ),
        "row 42".into(),
    );
    let row = client
        .query_one("SELECT id::text, f::text FROM t WHERE note = 'row 1'", &[])
        .await?;
    check(
        "inserted values read back as text",
        (row.get::<_, String>(0), row.get::<_, String>(1)),
        (Ulid(7920).to_string(), flake_text(104729)),
    );
    check(
        "a NULL ulidflake inserted",
        note(
            client
                .query_one("SELECT note FROM t WHERE f IS NULL", &[])
                .await?,
        ),
        "nulls".into(),
    );
    let row = client
        .query_one("SELECT id, f FROM t WHERE note = 'nulls'", &[])
        .await?;
    check(
        "a NULL ulidflake read as None, the ulid as Some",
        (
            row.get::<_, Option<DbUlid>>(0).map(|u| u.0),
            row.get::<_, Option<DbUlidFlake>>(1).map(|f| f.0),
        ),
        (Some(ulid), None),
    );
    let row = client.query_one("SELECT NULL::ulid", &[]).await?;
    check(
        "a NULL ulid read as None",
        row.get::<_, Option<DbUlid>>(0).map(|u| u.0),
        None,
    );
    let row = client
        .query_one(
            "SELECT $1::ulid IS NULL, $2::ulidflake IS NULL",
            &[&None::<DbUlid>, &None::<DbUlidFlake>],
        )
        .await?;
    check(
        "NULL parameters",
        (row.get::<_, bool>(0), row.get::<_, bool>(1)),
        (true, true),
    );
    let row = client
        .query_one(
            "SELECT $1::ulid::text, $2::ulidflake::text",
            &[&DbUlid(Ulid(u128::MAX)), &DbUlidFlake(i64::MAX)],
        )
        .await?;
    check(
        "the largest values as parameters",
        (row.get::<_, String>(0), row.get::<_, String>(1)),
        (LARGEST_ULID.into(), LARGEST_FLAKE.into()),
    );

    // The recipe's functions.
    client
        .batch_execute("CREATE TABLE events (id ulid PRIMARY KEY, flake ulidflake)")
        .await?;
    let other = Ulid::from_string(LARGEST_ULID)?;
    check(
        "recipe: add_event",
        add_event(&client, ulid, Some(FLAKE_AS_INT)).await?,
        1,
    );
    check(
        "recipe: add_event with a NULL",
        add_event(&client, other, None).await?,
        1,
    );
    check(
        "recipe: get_event",
        get_event(&client, ulid).await?,
        Some((ulid, Some(FLAKE_AS_INT))),
    );
    check(
        "recipe: get_event with a NULL",
        get_event(&client, other).await?,
        Some((other, None)),
    );
    check(
        "recipe: get_event of no row",
        get_event(&client, Ulid(7)).await?,
        None,
    );
    check(
        "recipe: stored as sent",
        client
            .query_one(
                "SELECT id::text || ' ' || flake::text FROM events WHERE flake IS NOT NULL",
                &[],
            )
            .await?
            .get::<_, String>(0),
        format!("{ULID} {FLAKE}"),
    );
    check(
        "recipe: get_event_by_cast",
        get_event_by_cast(&client, ulid).await?,
        Some((ulid, Some(FLAKE_AS_INT))),
    );
    check(
        "recipe: get_event_by_cast with a NULL",
        get_event_by_cast(&client, other).await?,
        Some((other, None)),
    );

    // The rest of "cast in SQL": uuid::Uuid and i64 both ways, with no glue.
    let uuid = Uuid::parse_str(ULID_AS_UUID)?;
    let row = client
        .query_one(
            "SELECT id::uuid, flake::bigint FROM events WHERE id = $1::uuid::ulid",
            &[&uuid],
        )
        .await?;
    check(
        "cast: read as uuid::Uuid and i64",
        (row.get::<_, Uuid>(0), row.get::<_, i64>(1)),
        (uuid, FLAKE_AS_INT),
    );
    let row = client
        .query_one(
            "SELECT id::uuid FROM events WHERE flake = $1::bigint::ulidflake",
            &[&FLAKE_AS_INT],
        )
        .await?;
    check(
        "cast: WHERE with a bigint",
        Ulid::from(row.get::<_, Uuid>(0)),
        ulid,
    );
    let cast_id = Ulid(12345);
    client
        .execute(
            "INSERT INTO events VALUES ($1::uuid, $2::bigint)",
            &[&Uuid::from(cast_id), &DIGITS_FLAKE_AS_INT],
        )
        .await?;
    check(
        "cast: INSERT of a uuid and a bigint (assignment casts)",
        get_event(&client, cast_id).await?,
        Some((cast_id, Some(DIGITS_FLAKE_AS_INT))),
    );

    // Bad ids as parameters: 22P02 from the input functions (text), 22P03 from the receive
    // functions (binary: a ulid of 15 bytes, a negative ulidflake).
    expect_db_error(
        &client,
        "bad text ulid through ::text",
        "SELECT $1::text::ulid",
        &[&BAD_TEXT_ULID],
        SqlState::INVALID_TEXT_REPRESENTATION,
        BAD_TEXT_ULID_MESSAGE,
    )
    .await?;
    expect_db_error(
        &client,
        "bad text ulidflake through ::text",
        "SELECT $1::text::ulidflake",
        &[&BAD_TEXT_FLAKE],
        SqlState::INVALID_TEXT_REPRESENTATION,
        BAD_TEXT_FLAKE_MESSAGE,
    )
    .await?;
    expect_db_error(
        &client,
        "bad ulid as a text-format parameter",
        "SELECT $1::ulid",
        &[&RawText(SHORT_TEXT_ULID)],
        SqlState::INVALID_TEXT_REPRESENTATION,
        SHORT_TEXT_ULID_MESSAGE,
    )
    .await?;
    expect_db_error(
        &client,
        "15-byte ulid in binary",
        "SELECT $1::ulid",
        &[&RawBinary(vec![1; 15])],
        SqlState::INVALID_BINARY_REPRESENTATION,
        SHORT_BINARY_ULID_MESSAGE,
    )
    .await?;
    expect_db_error(
        &client,
        "negative ulidflake in binary (the recipe's type)",
        "SELECT $1::ulidflake",
        &[&DbUlidFlake(-1)],
        SqlState::INVALID_BINARY_REPRESENTATION,
        NEGATIVE_FLAKE_MESSAGE,
    )
    .await?;
    expect_db_error(
        &client,
        "negative ulidflake in an INSERT",
        "INSERT INTO events VALUES ($1, $2)",
        &[&DbUlid(Ulid(99)), &DbUlidFlake(i64::MIN)],
        SqlState::INVALID_BINARY_REPRESENTATION,
        NEGATIVE_FLAKE_MESSAGE,
    )
    .await?;
    // A value of the wrong length is the glue's error, not a panic.
    check(
        "a 15-byte ulid is an error",
        DbUlid::from_sql(&Type::UUID, &[1; 15]).is_err(),
        true,
    );
    check(
        "a 7-byte ulidflake is an error",
        DbUlidFlake::from_sql(&Type::INT8, &[1; 7]).is_err(),
        true,
    );

    // Text: simple_query returns every value as its text; a text-format parameter reaches the
    // input function (the recipe's types are binary).
    let texts = |messages: Vec<SimpleQueryMessage>| -> Vec<Vec<Option<String>>> {
        messages
            .iter()
            .filter_map(|m| match m {
                SimpleQueryMessage::Row(row) => Some(
                    (0..row.len())
                        .map(|i| row.get(i).map(str::to_string))
                        .collect(),
                ),
                _ => None,
            })
            .collect()
    };
    check(
        "text results (simple_query)",
        texts(
            client
                .simple_query("SELECT id, f FROM t WHERE note IN ('row 1', 'nulls') ORDER BY note")
                .await?,
        ),
        vec![
            vec![Some(ULID.to_string()), None],
            vec![Some(Ulid(7920).to_string()), Some(flake_text(104729))],
        ],
    );
    check(
        "text-format parameter in WHERE",
        note(
            client
                .query_one(
                    "SELECT note FROM t WHERE id = $1",
                    &[&RawText("01arz3ndektsv4rrffq69g5fav")],
                )
                .await?,
        ),
        "nulls".into(),
    );
    client
        .execute(
            "INSERT INTO t VALUES ($1, $2, 'text insert')",
            &[&RawText(LARGEST_ULID), &RawText(DIGITS_FLAKE)],
        )
        .await?;
    let row = client
        .query_one("SELECT id, f FROM t WHERE note = 'text insert'", &[])
        .await?;
    check(
        "text-format parameters in INSERT, read back in binary",
        (row.get::<_, DbUlid>(0).0 .0, row.get::<_, DbUlidFlake>(1).0),
        (u128::MAX, DIGITS_FLAKE_AS_INT),
    );
    Ok(())
}
