#!/usr/bin/env python3
"""Hostile input against a server with the extension: run by tests/integration/hostile_input.sh.

A client of its own, through libpq with ctypes (no driver to install), so that it can send any
bytes as a binary parameter and read the backend's memory between statements. Checks:

1. Oversized bad text, built on the server (hundreds of millions of characters, past the sizes
   that used to abort the backend), through the cast, COPY FROM (text) and, on 16 and later,
   pg_input_is_valid() and pg_input_error_info(), in UTF8, LATIN1 and SQL_ASCII databases: each
   is 22P02 with a message of at most MAX_MESSAGE bytes that quotes 64 characters and gives the
   input's length.
2. An oversized binary value through COPY FROM (binary): 22P03, bounded.
3. The backend's resident memory, read from /proc between statements: after the oversized
   inputs have been sent over and over, it has not grown by more than MAX_GROWTH (a soft error
   used to leak 2.3 GB a call).
4. Binary values of every length from 0 to 40 (and 64, 1000, 65536), random bytes, as Bind
   parameters of type ulid and ulidflake, inside well-framed arrays and records of them, and in
   random COPY (FORMAT binary) files: a value is accepted exactly when it has the type's length
   (and, for ulidflake, a clear sign bit); every rejection is 22P03 (22P04 for a malformed COPY
   file; 08P01 or 22P03 for random bytes as a whole array), the connection stays usable, and no
   negative ulidflake is ever stored.
Prints a summary line per part; exits non-zero on the first failed check.
"""

import argparse
import ctypes
import ctypes.util
import os
import random
import struct
import sys

MAX_MESSAGE = 1024
MAX_GROWTH = 200 * 1024 * 1024
PGRES_COMMAND_OK, PGRES_TUPLES_OK = 1, 2
DIAG_SQLSTATE, DIAG_MESSAGE = ord("C"), ord("M")

libpq = ctypes.CDLL(ctypes.util.find_library("pq") or "libpq.so.5")
libpq.PQconnectdb.restype = ctypes.c_void_p
libpq.PQconnectdb.argtypes = [ctypes.c_char_p]
libpq.PQstatus.argtypes = [ctypes.c_void_p]
libpq.PQerrorMessage.restype = ctypes.c_char_p
libpq.PQerrorMessage.argtypes = [ctypes.c_void_p]
libpq.PQfinish.argtypes = [ctypes.c_void_p]
libpq.PQexecParams.restype = ctypes.c_void_p
libpq.PQexecParams.argtypes = [
    ctypes.c_void_p,
    ctypes.c_char_p,
    ctypes.c_int,
    ctypes.POINTER(ctypes.c_uint),
    ctypes.POINTER(ctypes.c_char_p),
    ctypes.POINTER(ctypes.c_int),
    ctypes.POINTER(ctypes.c_int),
    ctypes.c_int,
]
libpq.PQresultStatus.argtypes = [ctypes.c_void_p]
libpq.PQresultErrorField.restype = ctypes.c_char_p
libpq.PQresultErrorField.argtypes = [ctypes.c_void_p, ctypes.c_int]
libpq.PQntuples.argtypes = [ctypes.c_void_p]
libpq.PQgetvalue.restype = ctypes.c_char_p
libpq.PQgetvalue.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
libpq.PQclear.argtypes = [ctypes.c_void_p]


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


class Outcome:
    """What a statement did: its rows (text), or its SQLSTATE and message."""

    def __init__(self, rows=None, sqlstate=None, message=None):
        self.rows, self.sqlstate, self.message = rows, sqlstate, message

    @property
    def ok(self):
        return self.sqlstate is None

    def __repr__(self):
        return "ok" if self.ok else f"{self.sqlstate} {self.message[:200]!r}"


class Connection:
    def __init__(self, conninfo):
        self.conn = libpq.PQconnectdb(conninfo.encode())
        if libpq.PQstatus(self.conn) != 0:
            fail(f"cannot connect: {libpq.PQerrorMessage(self.conn).decode()}")
        self.pid = int(self.value("SELECT pg_backend_pid()"))

    def run(self, sql, params=(), types=()):
        """Runs `sql` with binary parameters `params` (bytes) of type OIDs `types`."""
        n = len(params)
        values = (ctypes.c_char_p * n)(*params)
        lengths = (ctypes.c_int * n)(*[len(p) for p in params])
        formats = (ctypes.c_int * n)(*([1] * n))
        oids = (ctypes.c_uint * n)(*types)
        result = libpq.PQexecParams(
            self.conn, sql.encode(), n, oids, values, lengths, formats, 0
        )
        if not result:
            fail(
                f"no result from the server (connection lost?): {libpq.PQerrorMessage(self.conn).decode()}"
            )
        try:
            status = libpq.PQresultStatus(result)
            if status in (PGRES_COMMAND_OK, PGRES_TUPLES_OK):
                rows = [
                    libpq.PQgetvalue(result, i, 0)
                    for i in range(libpq.PQntuples(result))
                ]
                return Outcome(rows=rows)
            sqlstate = libpq.PQresultErrorField(result, DIAG_SQLSTATE)
            message = libpq.PQresultErrorField(result, DIAG_MESSAGE) or b""
            return Outcome(
                sqlstate=(sqlstate or b"?").decode(),
                message=message.decode("utf-8", "replace"),
            )
        finally:
            libpq.PQclear(result)

    def value(self, sql):
        outcome = self.run(sql)
        if not outcome.ok:
            fail(f"{sql}: {outcome}")
        return outcome.rows[0].decode() if outcome.rows else None

    def usable(self):
        if self.value("SELECT 1") != "1":
            fail("the connection is not usable after an error")

    def resident_bytes(self):
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        fail("no VmRSS in /proc")

    def close(self):
        libpq.PQfinish(self.conn)


def expect_bounded_22p02(outcome, what, length):
    if outcome.sqlstate != "22P02":
        fail(f"{what}: expected 22P02, got {outcome}")
    size = len(outcome.message.encode())
    if size > MAX_MESSAGE:
        fail(f"{what}: a message of {size} bytes")
    if f"({length} characters)" not in outcome.message or '..."' not in outcome.message:
        fail(
            f"{what}: the message does not give the input cut and its length: {outcome.message[:300]!r}"
        )


def oversized_text(args):
    """Part 1 and 3: oversized bad text in three encodings, memory read before and after."""
    cases = {
        # database: (an expression making the bad text, its length in characters)
        "ulid_hostile_utf8": ("repeat(chr(233), 200000000)", 200_000_000),
        "ulid_hostile_latin1": ("repeat(chr(233), 134220000)", 134_220_000),
        "ulid_hostile_sql_ascii": ("repeat(chr(200), 400000000)", 400_000_000),
    }
    checked = 0
    for db, (text, length) in cases.items():
        conn = Connection(
            f"host={args.host} port={args.port} user=postgres dbname={db}"
        )
        before = conn.resident_bytes()
        for rounds in range(args.rounds):
            for type_name in ("ulid", "ulidflake"):
                outcome = conn.run(f"SELECT {text}::{type_name}")
                expect_bounded_22p02(outcome, f"{db}: the cast to {type_name}", length)
                conn.usable()
                checked += 1
                if args.major >= 16:
                    outcome = conn.run(
                        f"SELECT pg_input_is_valid({text}, '{type_name}')"
                    )
                    if not outcome.ok or outcome.rows != [b"f"]:
                        fail(
                            f"{db}: pg_input_is_valid of the bad text as {type_name}: {outcome}"
                        )
                    outcome = conn.run(
                        f"SELECT sql_error_code || ' ' || message FROM pg_input_error_info({text}, '{type_name}')"
                    )
                    if not outcome.ok:
                        fail(f"{db}: pg_input_error_info as {type_name}: {outcome}")
                    sqlstate, message = (
                        outcome.rows[0].decode("utf-8", "replace").split(" ", 1)
                    )
                    expect_bounded_22p02(
                        Outcome(sqlstate=sqlstate, message=message),
                        f"{db}: pg_input_error_info as {type_name}",
                        length,
                    )
                    checked += 2
            # COPY FROM (text): one line, the bad text in the first of two columns.
            path = os.path.join(args.files, f"{db}.txt")
            conn.run(f"COPY (SELECT {text}, 'x') TO '{path}'")
            outcome = conn.run(f"COPY hostile_text FROM '{path}'")
            expect_bounded_22p02(outcome, f"{db}: COPY FROM (text)", length)
            os.unlink(path)
            conn.usable()
            checked += 1
        grown = conn.resident_bytes() - before
        if grown > MAX_GROWTH:
            fail(
                f"{db}: the backend's resident memory grew by {grown // 2**20} MB over {args.rounds} rounds"
            )
        print(
            f"  {db}: bad text of {length:,} characters, {args.rounds} rounds: every error 22P02 and at most "
            f"{MAX_MESSAGE} bytes; the backend's memory grew by {max(grown, 0) // 2**20} MB"
        )
        conn.close()
    return checked


# The header of a COPY (FORMAT binary) file: signature, flags, header extension length.
COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0)


def copy_file(tuples):
    """A COPY (FORMAT binary) file of `tuples`, each a list of field values (bytes or None)."""
    out = bytearray(COPY_HEADER)
    for fields in tuples:
        out += struct.pack("!h", len(fields))
        for value in fields:
            out += (
                struct.pack("!i", -1)
                if value is None
                else struct.pack("!i", len(value)) + value
            )
    return bytes(out + struct.pack("!h", -1))


def oversized_binary(args, conn):
    """Part 2: a binary ulid of 100 MB through COPY FROM (binary)."""
    path = os.path.join(args.files, "oversized.bin")
    with open(path, "wb") as f:
        f.write(COPY_HEADER)
        size = 100_000_000
        f.write(struct.pack("!hi", 2, size))
        chunk = os.urandom(1 << 20)
        for _ in range(size >> 20):
            f.write(chunk)
        f.write(chunk[: size - (size >> 20 << 20)])
        f.write(struct.pack("!i", 8) + b"\x00" * 8 + struct.pack("!h", -1))
    os.chmod(path, 0o644)
    outcome = conn.run(f"COPY hostile_binary FROM '{path}' (FORMAT binary)")
    os.unlink(path)
    if outcome.sqlstate != "22P03" or len(outcome.message.encode()) > MAX_MESSAGE:
        fail(f"a 100 MB binary ulid: expected a bounded 22P03, got {outcome}")
    if "found 100000000" not in outcome.message:
        fail(f"a 100 MB binary ulid: the message does not give its length: {outcome}")
    conn.usable()
    print("  COPY FROM (binary) of a 100 MB ulid: 22P03, bounded")


def binary_values(args, conn, rng):
    """Part 4: every length as parameters, in arrays and records, and random COPY files."""
    oid = {
        name: int(conn.value(f"SELECT '{name}'::regtype::oid"))
        for name in ("ulid", "ulidflake", "ulid[]", "ulidflake[]", "hostile_pair")
    }
    lengths = list(range(41)) + [64, 1000, 65536]

    def accepted(type_name, value):
        if type_name == "ulid":
            return len(value) == 16
        return len(value) == 8 and value[0] < 0x80

    def random_value(length):
        # Ulid-Flakes of the right length with the sign bit set half of the time.
        return bytes(rng.getrandbits(8) for _ in range(length))

    def array(element_oid, elements):
        out = struct.pack(
            "!iiIii",
            1,
            int(any(e is None for e in elements)),
            element_oid,
            len(elements),
            1,
        )
        for e in elements:
            out += struct.pack("!i", -1) if e is None else struct.pack("!i", len(e)) + e
        return out

    def record(fields):
        out = struct.pack("!i", len(fields))
        for type_oid, value in fields:
            out += struct.pack("!Ii", type_oid, len(value)) + value
        return out

    checks = 0

    def check(outcome, should_pass, what, allowed=("22P03",)):
        nonlocal checks
        checks += 1
        if should_pass and not outcome.ok:
            fail(f"{what}: rejected: {outcome}")
        if not should_pass and (outcome.ok or outcome.sqlstate not in allowed):
            fail(f"{what}: expected {' or '.join(allowed)}, got {outcome}")
        if not outcome.ok:
            conn.usable()

    for type_name in ("ulid", "ulidflake"):
        for length in lengths:
            for _ in range(4 if length < 41 else 1):
                value = random_value(length)
                should = accepted(type_name, value)
                check(
                    conn.run("SELECT $1::text", [value], [oid[type_name]]),
                    should,
                    f"{type_name} of {length} bytes",
                )
                check(
                    conn.run(
                        f"INSERT INTO hostile_binary ({type_name}_value) VALUES ($1)",
                        [value],
                        [oid[type_name]],
                    ),
                    should,
                    f"INSERT of a {type_name} of {length} bytes",
                )
                # Inside an array, after a good element.
                good = b"\x01" * 16 if type_name == "ulid" else b"\x00\x01" * 4
                elements = [good, value, None]
                check(
                    conn.run(
                        "SELECT $1::text",
                        [array(oid[type_name], elements)],
                        [oid[f"{type_name}[]"]],
                    ),
                    should,
                    f"a {type_name}[] with an element of {length} bytes",
                )
        # Random bytes as a whole array: framing errors come from PostgreSQL itself.
        for length in lengths:
            value = random_value(length)
            check(
                conn.run("SELECT $1::text", [value], [oid[f"{type_name}[]"]]),
                False,
                f"{length} random bytes as a {type_name}[]",
                allowed=("08P01", "22P03", "42804", "22023", "54000"),
            )
    # Records of (ulid, ulidflake) with fields of every length.
    for length in lengths:
        a, b = random_value(length), random_value(length)
        should = accepted("ulid", a) and accepted("ulidflake", b)
        check(
            conn.run(
                "SELECT $1::text",
                [record([(oid["ulid"], a), (oid["ulidflake"], b)])],
                [oid["hostile_pair"]],
            ),
            should,
            f"a record of a {length}-byte ulid and ulidflake",
        )
    # Random COPY (FORMAT binary) files: well framed with fields of random lengths, and cut short.
    path = os.path.join(args.files, "random.bin")
    loaded = 0
    for n in range(args.copy_files):
        # Two in five files hold only good values; the others have one field of a random length,
        # a Ulid-Flake with the sign bit set, or one field too many.
        tuples = []
        for _ in range(rng.randint(1, 20)):
            ulid = None if rng.random() < 0.1 else random_value(16)
            flake = (
                None
                if rng.random() < 0.1
                else bytes([rng.getrandbits(7)]) + random_value(7)
            )
            tuples.append([ulid, flake])
        if n % 5 >= 2:
            row = rng.choice(tuples)
            spoil = rng.randrange(3)
            if spoil == 0:
                row[0] = random_value(rng.choice([0, 1, 8, 15, 17, 32]))
            elif spoil == 1:
                row[1] = bytes([0x80 | rng.getrandbits(7)]) + random_value(
                    rng.choice([7, 7, 3, 8])
                )
            else:
                row.append(random_value(8))
        data = copy_file(tuples)
        truncated = n % 10 == 9
        if truncated:
            data = data[: rng.randint(0, len(data) - 1)]
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, 0o644)
        should = not truncated and all(
            len(t) == 2
            and (t[0] is None or accepted("ulid", t[0]))
            and (t[1] is None or accepted("ulidflake", t[1]))
            for t in tuples
        )
        outcome = conn.run(
            f"COPY hostile_binary (ulid_value, ulidflake_value) FROM '{path}' (FORMAT binary)"
        )
        check(outcome, should, f"random COPY file {n}", allowed=("22P03", "22P04"))
        loaded += should
    os.unlink(path)
    negative = conn.value(
        "SELECT count(*) FROM hostile_binary WHERE ulidflake_value::bigint < 0"
    )
    if negative != "0":
        fail(f"{negative} negative ulidflake values were stored")
    stored = conn.value("SELECT count(*) FROM hostile_binary")
    print(
        f"  binary values: {checks} checks (lengths 0-40, 64, 1000, 65536 as parameters, in arrays and "
        f"records, {args.copy_files} random COPY files, {loaded} of them loaded): every value of the right "
        f"length accepted, every other one 22P03; {stored} rows stored, none with a negative ulidflake"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", required=True)
    parser.add_argument("--major", type=int, required=True)
    parser.add_argument(
        "--files", required=True, help="a directory the server can read and write"
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--copy-files", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(20261125)
    checked = oversized_text(args)
    conn = Connection(
        f"host={args.host} port={args.port} user=postgres dbname=ulid_hostile_utf8"
    )
    oversized_binary(args, conn)
    binary_values(args, conn, rng)
    conn.close()
    print(f"  oversized text: {checked} statements checked")


if __name__ == "__main__":
    main()
