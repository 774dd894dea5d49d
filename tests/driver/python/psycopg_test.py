"""A real client driver over the wire: psycopg 3, text and binary format, both directions.

A ulid received in binary is 16 bytes that psycopg's own uuid loader reads as the uuid with the
same value; a ulidflake in binary is the 8 bytes of the bigint with the same value. Parameters
sent in binary reach ulid_recv / ulidflake_recv, which reject other lengths and the sign bit.
Run by scripts/test.sh with PGHOST, PGPORT and PGUSER set; exits non-zero on any failure.
"""

import sys
import uuid

import psycopg
from psycopg import errors
from psycopg.adapt import Dumper
from psycopg.types.composite import CompositeInfo, register_composite
from psycopg.types.numeric import Int8BinaryDumper
from psycopg.types.uuid import UUIDBinaryDumper

ULID = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
ULID_AS_UUID = uuid.UUID("01563e3a-b5d3-d676-4c61-efb99302bd5b")
FLAKE = "00CMXB6TAK4SA"
FLAKE_AS_INT = 14246757444195114

checks = 0


# recipe:begin
# psycopg returns the text of a type it has no loader for: out of the box a ulid reads as its
# 26-character str and a ulidflake as its 13-character str, and str parameters go back as text.
# For the values instead, tell psycopg that in binary a ulid is a uuid and a ulidflake a bigint
# (the same bytes), and read with a binary cursor: a ulid is then a uuid.UUID, a ulidflake an int
# (Python's ints hold all 63 bits). Send them back as %s::ulid and %s::bigint::ulidflake (in an
# INSERT, plain %s: the casts from uuid and bigint are assignment casts).
from psycopg.types import TypeInfo
from psycopg.types.numeric import Int8BinaryLoader
from psycopg.types.uuid import UUIDBinaryLoader


def register_ulid_types(conn):
    conn.adapters.register_loader(TypeInfo.fetch(conn, "ulid").oid, UUIDBinaryLoader)
    conn.adapters.register_loader(TypeInfo.fetch(conn, "ulidflake").oid, Int8BinaryLoader)


def get_event(conn, event_id):
    with conn.cursor(binary=True) as cur:
        cur.execute("SELECT id, flake FROM events WHERE id = %s::ulid", [event_id])
        return cur.fetchone()  # (UUID('01563e3a-b5d3-d676-4c61-efb99302bd5b'), 14246757444195114)


def add_event(conn, event_id, flake):
    conn.execute("INSERT INTO events (id, flake) VALUES (%s, %s)", [event_id, flake])
# recipe:end


def check(label, got, want):
    global checks
    if got != want:
        print(f"FAIL: {label}: got {got!r}, want {want!r}")
        sys.exit(1)
    checks += 1


def main():
    with psycopg.connect(dbname="postgres", autocommit=True) as admin:
        admin.execute("DROP DATABASE IF EXISTS ulid_driver")
        admin.execute("CREATE DATABASE ulid_driver")
    conn = psycopg.connect(dbname="ulid_driver", autocommit=True)
    conn.execute("CREATE EXTENSION ulid")
    ulid_oid, flake_oid = conn.execute(
        "SELECT 'ulid'::regtype::oid, 'ulidflake'::regtype::oid"
    ).fetchone()

    # Text format: the canonical text both ways, without any adapter.
    cur = conn.execute("SELECT %s::ulid, %s::ulidflake", [ULID.lower(), FLAKE.lower()])
    check("text results", cur.fetchone(), (ULID, FLAKE))

    # Binary results, raw: 16 and 8 bytes in network order.
    cur = conn.cursor(binary=True)
    raw_ulid, raw_flake = cur.execute("SELECT %s::ulid, %s::ulidflake", [ULID, FLAKE]).fetchone()
    check("binary ulid is the uuid's 16 bytes", bytes(raw_ulid), ULID_AS_UUID.bytes)
    check("binary ulidflake is the bigint's 8 bytes", bytes(raw_flake), FLAKE_AS_INT.to_bytes(8, "big"))

    # The recipe: the driver's own uuid and bigint loaders read them in binary; parameters as
    # uuid.UUID and int, in WHERE and INSERT; NULLs both ways.
    register_ulid_types(conn)
    conn.execute("CREATE TABLE events (id ulid PRIMARY KEY, flake ulidflake)")
    add_event(conn, ULID_AS_UUID, FLAKE_AS_INT)
    add_event(conn, uuid.UUID(int=2**128 - 1), 2**63 - 1)
    add_event(conn, uuid.UUID(int=1), None)
    check("recipe: read by uuid", get_event(conn, ULID_AS_UUID), (ULID_AS_UUID, FLAKE_AS_INT))
    check("recipe: the largest values", get_event(conn, uuid.UUID(int=2**128 - 1)), (uuid.UUID(int=2**128 - 1), 2**63 - 1))
    check("recipe: a NULL ulidflake", get_event(conn, uuid.UUID(int=1)), (uuid.UUID(int=1), None))
    check("recipe: stored as text", conn.execute("SELECT id::text, flake::text FROM events WHERE flake = %s::bigint::ulidflake",
                                                 [FLAKE_AS_INT]).fetchone(), (ULID, FLAKE))
    check("recipe: a missing id", get_event(conn, uuid.UUID(int=2)), None)
    cur = conn.cursor(binary=True)
    row = cur.execute("SELECT %s::ulid, %s::ulidflake", [ULID, FLAKE]).fetchone()
    check("uuid loader on a binary ulid", row, (ULID_AS_UUID, FLAKE_AS_INT))
    rows = cur.execute(
        "SELECT id, id::uuid, f, f::bigint FROM (SELECT gen_ulid() AS id, gen_ulidflake() AS f "
        "FROM generate_series(1, 1000)) s"
    ).fetchall()
    check("1000 generated values read as their uuid/bigint", all(a == b and c == d for a, b, c, d in rows), True)

    # Binary parameters: a uuid sent as a ulid, an int sent as a ulidflake.
    class UlidDumper(UUIDBinaryDumper):
        oid = ulid_oid

    class FlakeDumper(Int8BinaryDumper):
        oid = flake_oid

    class AsUlid(uuid.UUID):
        pass

    class AsFlake(int):
        pass

    conn.adapters.register_dumper(AsUlid, UlidDumper)
    conn.adapters.register_dumper(AsFlake, FlakeDumper)
    text = conn.execute(
        "SELECT %b::text, %b::text", [AsUlid(bytes=ULID_AS_UUID.bytes), AsFlake(FLAKE_AS_INT)]
    ).fetchone()
    check("binary parameters", text, (ULID, FLAKE))
    conn.execute("CREATE TABLE t (id ulid PRIMARY KEY, f ulidflake)")
    for i in range(100):
        conn.execute("INSERT INTO t VALUES (%b, %b)", [AsUlid(int=i * 7919 + 1), AsFlake(i * 104729)])
    check(
        "binary inserts read back",
        conn.execute("SELECT count(*), sum(f::bigint) FROM t WHERE id::uuid::text LIKE '00000000-%'").fetchone(),
        (100, sum(i * 104729 for i in range(100))),
    )

    # Inside arrays and composites, in binary: array_recv and record_recv call ulid_recv and
    # ulidflake_recv for each element or field, both ways.
    TypeInfo.fetch(conn, "ulid").register(conn)
    TypeInfo.fetch(conn, "ulidflake").register(conn)
    conn.execute("CREATE TYPE pair AS (id ulid, f ulidflake)")
    pair_info = CompositeInfo.fetch(conn, "pair")
    register_composite(pair_info, conn)
    ids = [AsUlid(bytes=ULID_AS_UUID.bytes), AsUlid(int=1), AsUlid(int=2**128 - 1)]
    check(
        "a ulid[] parameter in binary",
        conn.execute("SELECT %b::text[]", [ids]).fetchone(),
        ([ULID, "00000000000000000000000001", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"],),
    )
    check(
        "a ulidflake[] parameter in binary",
        conn.execute("SELECT %b::text[]", [[AsFlake(FLAKE_AS_INT), AsFlake(0)]]).fetchone(),
        ([FLAKE, "0000000000000"],),
    )
    check(
        "a composite parameter in binary",
        conn.execute(
            "SELECT (%b::pair).id::text, (%b::pair).f::text",
            [pair_info.python_type(ids[0], AsFlake(FLAKE_AS_INT))] * 2,
        ).fetchone(),
        (ULID, FLAKE),
    )
    cur = conn.cursor(binary=True)
    check(
        "a ulid[] and a composite result in binary",
        cur.execute(
            "SELECT ARRAY[%s::ulid, '00000000000000000000000001'], ROW(%s::ulid, %s::ulidflake)::pair",
            [ULID, ULID, FLAKE],
        ).fetchone(),
        ([ULID_AS_UUID, uuid.UUID(int=1)], pair_info.python_type(ULID_AS_UUID, FLAKE_AS_INT)),
    )
    # Binary parameters of the wrong length, or a negative ulidflake: 22P03, session usable.
    class RawDumper(Dumper):
        format = psycopg.pq.Format.BINARY

        def dump(self, obj):
            return obj.data

    class RawUlid:
        def __init__(self, data):
            self.data = data

    class RawFlake(RawUlid):
        pass

    class RawUlidDumper(RawDumper):
        oid = ulid_oid

    class RawFlakeDumper(RawDumper):
        oid = flake_oid

    conn.adapters.register_dumper(RawUlid, RawUlidDumper)
    conn.adapters.register_dumper(RawFlake, RawFlakeDumper)
    for value, message in [
        (RawUlid(b"\x01" * 15), "invalid binary ulid: expected 16 bytes, found 15"),
        (RawUlid(b"\x01" * 17), "invalid binary ulid: expected 16 bytes, found 17"),
        (RawFlake(b"\x01" * 7), "invalid binary ulidflake: expected 8 bytes, found 7"),
        (RawFlake(b"\xff" * 8), "invalid binary ulidflake: the sign bit is set"),
    ]:
        try:
            conn.execute("SELECT %b", [value])
            check("bad binary parameter rejected", "accepted", message)
        except errors.InvalidBinaryRepresentation as e:
            check("bad binary parameter", (e.sqlstate, e.diag.message_primary), ("22P03", message))
    check("session usable after errors", conn.execute("SELECT 1").fetchone(), (1,))

    # Bad text parameters (a str, sent as text): 22P02 from ulid_in / ulidflake_in, session usable.
    for query, value, message in [
        ("SELECT %s::ulid", "01ARZ3NDEKTSV4RRFFQ69G5FAU", 'invalid input syntax for type ulid: "01ARZ3NDEKTSV4RRFFQ69G5FAU": '
         'invalid character "U" at position 26 (Crockford base32 has no I, L, O or U)'),
        ("SELECT %s::ulidflake", "00CMXB6TAK4S", 'invalid input syntax for type ulidflake: "00CMXB6TAK4S": '
         "expected 13 characters, found 12"),
    ]:
        try:
            conn.execute(query, [value])
            check("bad text parameter rejected", "accepted", message)
        except errors.InvalidTextRepresentation as e:
            check("bad text parameter", (e.sqlstate, e.diag.message_primary), ("22P02", message))
        check("session usable after a bad text parameter", conn.execute("SELECT 1").fetchone(), (1,))

    # A bad element inside a binary array: 22P03 from ulid_recv / ulidflake_recv.
    for value, message in [
        ([RawUlid(ULID_AS_UUID.bytes), RawUlid(b"\x01" * 15)], "invalid binary ulid: expected 16 bytes, found 15"),
        ([RawFlake(b"\x00" * 8), RawFlake(b"\x80" + b"\x00" * 7)], "invalid binary ulidflake: the sign bit is set"),
    ]:
        try:
            conn.execute("SELECT %b", [value])
            check("bad array element rejected", "accepted", message)
        except errors.InvalidBinaryRepresentation as e:
            check("bad array element", (e.sqlstate, e.diag.message_primary), ("22P03", message))
    check("session usable after errors in arrays", conn.execute("SELECT 1").fetchone(), (1,))

    # COPY in binary, typed as uuid and bigint on the client: the same wire format.
    with conn.cursor().copy("COPY t TO STDOUT (FORMAT BINARY)") as copy:
        copy.set_types(["uuid", "int8"])
        copied = list(copy.rows())
    check("COPY TO binary read as uuid/bigint", len(copied), 100)
    conn.execute("CREATE TABLE t2 (id ulid PRIMARY KEY, f ulidflake)")
    with conn.cursor().copy("COPY t2 FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(["uuid", "int8"])
        for row in copied:
            copy.write_row(row)
    check(
        "COPY FROM binary written as uuid/bigint",
        conn.execute("SELECT count(*) FROM t JOIN t2 USING (id, f)").fetchone(),
        (100,),
    )

    conn.close()
    with psycopg.connect(dbname="postgres", autocommit=True) as admin:
        admin.execute("DROP DATABASE ulid_driver")
    print(f"driver (psycopg {psycopg.__version__}, libpq {psycopg.pq.version()}): {checks} checks, text and binary both ways")
    print("  ok")


if __name__ == "__main__":
    main()
