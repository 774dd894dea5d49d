"""asyncpg over the wire: it speaks the binary protocol for the types it has codecs for, and text
for the others. The recipe tells it that ulid has uuid's wire format and ulidflake bigint's.

Checks, against a real server: results, parameters in WHERE and INSERT, NULLs, in binary (the
recipe) and in text; bad ids as parameters give asyncpg's error with SQLSTATE 22P02 (text) or
22P03 (binary), and the connection goes on working. Run by tests/driver/python/run.sh with
PGHOST, PGPORT and PGUSER set; exits non-zero on the first failure.
"""

import asyncio
import sys
import uuid

import asyncpg

ULID = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
ULID_AS_UUID = uuid.UUID("01563e3a-b5d3-d676-4c61-efb99302bd5b")
FLAKE = "00CMXB6TAK4SA"
FLAKE_AS_INT = 14246757444195114
LARGEST_FLAKE = 2**63 - 1  # 7ZZZZZZZZZZZZ

checks = 0


def check(label, got, want):
    global checks
    if got != want:
        print(f"FAIL: {label}: got {got!r}, want {want!r}")
        sys.exit(1)
    checks += 1


# recipe:begin
# Out of the box asyncpg exchanges types it has no codec for as text: a ulid is its 26-character
# str, a ulidflake its 13-character str, and strings go back as parameters. To get the values
# instead, tell asyncpg that ulid has uuid's binary format and ulidflake bigint's, once per
# connection (for a pool: asyncpg.create_pool(..., init=register_ulid_types)). A ulid then reads
# as a uuid.UUID (the same 128 bits; its 26-character form is id::text in SQL), a ulidflake as
# an int (Python's ints hold all 63 bits), and both go back as such, in binary.
async def register_ulid_types(conn, schema="public"):
    await conn.set_builtin_type_codec("ulid", schema=schema, codec_name="uuid")
    await conn.set_builtin_type_codec("ulidflake", schema=schema, codec_name="int8")
# recipe:end


async def expect_error(conn, label, query, args, error, sqlstate, message):
    try:
        await conn.fetchval(query, *args)
        check(label, "accepted", message)
    except error as e:
        check(label, (e.sqlstate, e.args[0]), (sqlstate, message))


async def main():
    admin = await asyncpg.connect(database="postgres")
    await admin.execute("DROP DATABASE IF EXISTS ulid_asyncpg")
    await admin.execute("CREATE DATABASE ulid_asyncpg")
    conn = await asyncpg.connect(database="ulid_asyncpg")
    await conn.execute("CREATE EXTENSION ulid")

    # Without the recipe asyncpg has no binary codec for the types and exchanges them as text:
    # the 26- and 13-character strings, both ways.
    check("text without the recipe", tuple(await conn.fetchrow("SELECT $1::ulid, $2::ulidflake", ULID.lower(), FLAKE)),
          (ULID, FLAKE))

    await register_ulid_types(conn)
    # Results: a ulid is the uuid with its bytes, a ulidflake the bigint with its value.
    row = await conn.fetchrow("SELECT $1::text::ulid AS id, $2::text::ulidflake AS f", ULID.lower(), FLAKE)
    check("binary results", (row["id"], row["f"]), (ULID_AS_UUID, FLAKE_AS_INT))
    check("a ulidflake above 2^53, exactly", await conn.fetchval("SELECT '7ZZZZZZZZZZZZ'::ulidflake"), LARGEST_FLAKE)
    rows = await conn.fetch(
        "SELECT id, id::uuid AS u, f, f::bigint AS b FROM (SELECT gen_ulid() AS id, gen_ulidflake() AS f "
        "FROM generate_series(1, 1000)) s"
    )
    check("1000 generated values read as their uuid/bigint", all(r["id"] == r["u"] and r["f"] == r["b"] for r in rows), True)

    # Parameters, in WHERE and INSERT, and NULLs both ways.
    await conn.execute("CREATE TABLE t (id ulid PRIMARY KEY, f ulidflake, note text)")
    await conn.executemany(
        "INSERT INTO t VALUES ($1, $2, $3)",
        [(uuid.UUID(int=i * 7919 + 1), i * 104729, f"row {i}") for i in range(100)] + [(ULID_AS_UUID, None, "nulls")],
    )
    check("WHERE with a ulid parameter", await conn.fetchval("SELECT note FROM t WHERE id = $1", uuid.UUID(int=42 * 7919 + 1)), "row 42")
    check("WHERE with a ulidflake parameter", await conn.fetchval("SELECT note FROM t WHERE f = $1", 42 * 104729), "row 42")
    check("inserted ulid read back as text", await conn.fetchval("SELECT id::text FROM t WHERE note = 'nulls'"), ULID)
    check("a NULL ulidflake read", await conn.fetchval("SELECT f FROM t WHERE note = 'nulls'"), None)
    check("NULL parameters", await conn.fetchval("SELECT $1::ulid IS NULL AND $2::ulidflake IS NULL", None, None), True)
    check("a large ulidflake parameter round-trips",
          await conn.fetchval("SELECT $1::ulidflake::text", LARGEST_FLAKE), "7ZZZZZZZZZZZZ")

    # Bad ids as parameters. Text: 22P02 from the input function. Binary: 22P03 from the receive
    # functions (a ulid of 15 bytes; a negative ulidflake, whose sign bit is set).
    await expect_error(conn, "bad text id", "SELECT $1::text::ulid", ["01ARZ3NDEKTSV4RRFFQ69G5FAU"],
                       asyncpg.exceptions.InvalidTextRepresentationError, "22P02",
                       'invalid input syntax for type ulid: "01ARZ3NDEKTSV4RRFFQ69G5FAU": invalid character "U" '
                       "at position 26 (Crockford base32 has no I, L, O or U)")
    await expect_error(conn, "negative ulidflake in binary", "SELECT $1::ulidflake", [-1],
                       asyncpg.exceptions.InvalidBinaryRepresentationError, "22P03",
                       "invalid binary ulidflake: the sign bit is set")
    raw = await asyncpg.connect(database="ulid_asyncpg")
    await raw.set_type_codec("ulid", schema="public", encoder=bytes, decoder=bytes, format="binary")
    await expect_error(raw, "15-byte ulid in binary", "SELECT $1::ulid", [b"\x01" * 15],
                       asyncpg.exceptions.InvalidBinaryRepresentationError, "22P03",
                       "invalid binary ulid: expected 16 bytes, found 15")
    check("binary ulid read raw", await raw.fetchval("SELECT $1::text::ulid", ULID), ULID_AS_UUID.bytes)
    check("connection usable after errors", (await conn.fetchval("SELECT 1"), await raw.fetchval("SELECT 2")), (1, 2))
    await raw.close()

    # Text format instead: the canonical text both ways.
    text = await asyncpg.connect(database="ulid_asyncpg")
    await text.set_type_codec("ulid", schema="public", encoder=str, decoder=str, format="text")
    await text.set_type_codec("ulidflake", schema="public", encoder=str, decoder=str, format="text")
    check("text results", tuple(await text.fetchrow("SELECT id, f FROM t WHERE note = 'row 1'")),
          ("000000000000000000000007QG", "000000000368S"))
    check("text parameters in WHERE", await text.fetchval("SELECT note FROM t WHERE id = $1", ULID.lower()), "nulls")
    await text.execute("INSERT INTO t VALUES ($1, $2, 'text insert')", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "7ZZZZZZZZZZZZ")
    check("text insert", await conn.fetchval("SELECT f FROM t WHERE note = 'text insert'"), LARGEST_FLAKE)
    await expect_error(text, "bad text id as a text parameter", "SELECT $1::ulid", ["01ARZ3NDEK"],
                       asyncpg.exceptions.InvalidTextRepresentationError, "22P02",
                       'invalid input syntax for type ulid: "01ARZ3NDEK": expected 26 characters, found 10')
    check("text connection usable after the error", await text.fetchval("SELECT 3"), 3)
    await text.close()

    await conn.close()
    await admin.execute("DROP DATABASE ulid_asyncpg")
    await admin.close()
    print(f"driver (asyncpg {asyncpg.__version__}): {checks} checks, binary (the recipe) and text both ways")
    print("  ok")


if __name__ == "__main__":
    asyncio.run(main())
