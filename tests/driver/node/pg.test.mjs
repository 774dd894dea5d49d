// A real client driver over the wire: node-postgres (pg), both directions, text and binary.
//
// What node-postgres does with the extension's types (pg 8.23.1):
// - Results are text unless a query asks for `binary: true`. A type pg has no parser for (every
//   extension type: their OIDs are not fixed) comes back as its text, so a ulid reads as its
//   26-character string and a ulidflake as its 13-character string, with no glue.
// - A string parameter is sent as text and parsed by the server; a Buffer parameter is sent in
//   binary (`binary: true` plays no part in it) and reaches ulid_recv / ulidflake_recv as is.
// - Binary results are not usable. A binary value of a type pg has no parser for goes through
//   pg-types' fallback, String(value), and comes out as its bytes decoded as UTF-8; a Buffer
//   takes `client.setTypeParser(oid, 'binary', ...)` with the OID looked up at connect time. But
//   either way the bytes are already damaged: pg-protocol decodes every field of a row as UTF-8
//   and Result turns the string back into a Buffer, so any byte that is not valid UTF-8 is
//   replaced (brianc/node-postgres#3495, open). A ulid is 16 raw bytes and a ulidflake 8, so they
//   come back right only when every byte is below 0x80. The checks below show both cases; the one on
//   the damaged case fails once the driver keeps the bytes, the sign to add binary results here.
// - `binary: true` on a query without parameters does nothing: pg then uses the simple query
//   protocol, whose results are always text. `queryMode: 'extended'` forces the other one.
//
// The recipe (between the markers) is copied verbatim into the README; the test calls it.
// Run by run.sh with PGHOST, PGPORT and PGUSER set; exits non-zero on the first failure.

import assert from 'node:assert/strict'
import { createRequire } from 'node:module'

// recipe:begin
import pg from 'pg'

// For a table events (id ulid, flake ulidflake). node-postgres returns the text of any type it
// has no parser for, and sends a string parameter as text, for the server to parse. So, with no
// glue at all, a ulid reads as its 26-character string ('01ARZ3NDEKTSV4RRFFQ69G5FAV') and a
// ulidflake as its 13-character string ('00CMXB6TAK4SA'), both go back as they are, and no
// precision is lost: nothing becomes a Number. A bad id is a pg.DatabaseError with code '22P02'.
// (By uuid: `id = $1::uuid::ulid` finds a row, and `id::uuid` reads the uuid string.)
export async function addEvent(client, id, flake) {
  await client.query('INSERT INTO events (id, flake) VALUES ($1, $2)', [id, flake])
}

export async function getEvent(client, id) {
  const { rows } = await client.query('SELECT id, flake FROM events WHERE id = $1', [id])
  return rows[0] // { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV', flake: '00CMXB6TAK4SA' }, or undefined
}

// A ulidflake as a BigInt (a Number holds 53 bits exactly, a ulidflake has 63): cast it to
// bigint in SQL, and have this client parse bigint (OID 20, fixed) as BigInt rather than as its
// default, a string (every bigint column of this client then reads as a BigInt). Send a BigInt
// back as $2::bigint: a bare $2 would be read as the ulidflake's text, and decimal digits are
// Crockford characters too.
export function useBigInt(client) {
  client.setTypeParser(pg.types.builtins.INT8, BigInt)
}

export async function addEventBigInt(client, id, flake) {
  await client.query('INSERT INTO events (id, flake) VALUES ($1, $2::bigint)', [id, flake])
}

export async function getFlakeBigInt(client, id) {
  const { rows } = await client.query('SELECT flake::bigint AS flake FROM events WHERE id = $1', [id])
  return rows[0]?.flake // 14246757444195114n, or null
}
// recipe:end

const ULID = '01ARZ3NDEKTSV4RRFFQ69G5FAV'
const ULID_UUID = '01563e3a-b5d3-d676-4c61-efb99302bd5b'
const FLAKE = '00CMXB6TAK4SA'
const FLAKE_BIGINT = 14246757444195114n
const DATABASE = 'ulid_node'

let checks = 0

// One check: fails the run (the first failure ends it) unless actual deep-equals expected.
function ok(label, actual, expected) {
  assert.deepStrictEqual(actual, expected, label)
  checks++
}

// One check: the promise fails with the server's error of this SQLSTATE and message.
async function fails(label, promise, code, message) {
  let error = null
  try {
    await promise
  } catch (e) {
    error = e
  }
  assert.ok(error instanceof pg.DatabaseError, `${label}: expected a pg.DatabaseError, got ${error}`)
  assert.equal(error.code, code, `${label}: SQLSTATE (${error.message})`)
  assert.match(error.message, message, `${label}: message`)
  checks++
}

// Crockford base32, computed here independently of the server.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
function crockford(value, chars) {
  let text = ''
  for (let i = 0; i < chars; i++) {
    text = ALPHABET[Number(value & 31n)] + text
    value >>= 5n
  }
  assert.equal(value, 0n, 'value too large')
  return text
}
const ulidOfUuid = (uuid) => crockford(BigInt('0x' + uuid.replaceAll('-', '')), 26)
const flakeOf = (n) => crockford(n, 13)
const uuidBytes = (uuid) => Buffer.from(uuid.replaceAll('-', ''), 'hex')
function bigintBytes(n) {
  const bytes = Buffer.alloc(8)
  bytes.writeBigUInt64BE(BigInt.asUintN(64, n))
  return bytes
}

async function one(client, query) {
  return (await client.query(query)).rows[0]
}

async function stillUsable(client, after) {
  ok(`connection usable after ${after}`, await one(client, 'SELECT 41 + 1 AS n'), { n: 42 })
}

async function textChecks(client) {
  ok('helper: ulid of the uuid', ulidOfUuid(ULID_UUID), ULID)
  ok('helper: ulidflake of the bigint', flakeOf(FLAKE_BIGINT), FLAKE)

  // A query returning ids: generated ones, each a string in canonical form that agrees with its
  // uuid and bigint (read through their text, so nothing goes through a Number).
  const { rows, fields } = await client.query(
    'SELECT id, id::uuid::text AS uuid, flake, flake::bigint::text AS n FROM ' +
      '(SELECT gen_ulid() AS id, gen_ulidflake() AS flake FROM generate_series(1, 500)) s',
  )
  ok('500 generated rows', rows.length, 500)
  ok('result columns are text', fields.map((f) => f.format), ['text', 'text', 'text', 'text'])
  ok('generated ulids are 26-character strings', rows.every((r) => /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(r.id)), true)
  ok('generated ulidflakes are 13-character strings', rows.every((r) => /^[0-7][0-9A-HJKMNP-TV-Z]{12}$/.test(r.flake)), true)
  ok('each generated ulid is the text of its uuid', rows.filter((r) => r.id !== ulidOfUuid(r.uuid)), [])
  ok('each generated ulidflake is the text of its bigint', rows.filter((r) => r.flake !== flakeOf(BigInt(r.n))), [])
  ok('generated ulids are distinct', new Set(rows.map((r) => r.id)).size, 500)

  // Parameters, through the recipe: INSERT, then WHERE; input is case-insensitive.
  await addEvent(client, ULID.toLowerCase(), FLAKE.toLowerCase())
  ok(
    'inserted values, as the server holds them',
    await one(client, `SELECT id::uuid::text AS uuid, flake::bigint::text AS n FROM events WHERE id = '${ULID}'`),
    { uuid: ULID_UUID, n: String(FLAKE_BIGINT) },
  )
  ok('read back by a ulid parameter', await getEvent(client, ULID), { id: ULID, flake: FLAKE })
  ok('read back by a lower-case parameter', await getEvent(client, ULID.toLowerCase()), { id: ULID, flake: FLAKE })
  ok('an unknown id finds nothing', await getEvent(client, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'), undefined)
  ok(
    'by uuid: id = $1::uuid::ulid, and id::uuid',
    (await client.query('SELECT id::uuid AS uuid FROM events WHERE id = $1::uuid::ulid', [ULID_UUID])).rows,
    [{ uuid: ULID_UUID }],
  )
  ok(
    'the typed parameters echo their canonical text',
    (await client.query('SELECT $1::ulid AS id, $2::ulidflake AS flake', [ULID.toLowerCase(), FLAKE.toLowerCase()])).rows,
    [{ id: ULID, flake: FLAKE }],
  )

  // NULLs, both directions.
  const nullId = ulidOfUuid('0191d1a8-8f3c-7e41-b2a6-5c3e9f0d7a00')
  await addEvent(client, nullId, null)
  ok('a NULL ulidflake reads as null', await getEvent(client, nullId), { id: nullId, flake: null })
  await addEvent(client, null, null)
  ok(
    'NULL parameters are stored as NULL',
    await one(client, 'SELECT count(*)::int AS n FROM events WHERE id IS NULL AND flake IS NULL'),
    { n: 1 },
  )
  ok('NULL results read as null', await one(client, 'SELECT NULL::ulid AS id, NULL::ulidflake AS flake'), { id: null, flake: null })

  // Bad ids as parameters: the driver's error with the SQLSTATE, and the connection goes on.
  await fails(
    'a bad ulid parameter',
    addEvent(client, '01ARZ3NDEKTSV4RRFFQ69G5FAU', FLAKE),
    '22P02',
    /invalid input syntax for type ulid: "01ARZ3NDEKTSV4RRFFQ69G5FAU": invalid character "U" at position 26/,
  )
  await stillUsable(client, 'a bad ulid')
  await fails('a bad ulid in WHERE', getEvent(client, 'not a ulid'), '22P02', /invalid input syntax for type ulid/)
  await stillUsable(client, 'a bad ulid in WHERE')
  await fails('a bad ulidflake parameter', addEvent(client, ULID, '00CMXB6TAK4SU'), '22P02', /invalid input syntax for type ulidflake/)
  await stillUsable(client, 'a bad ulidflake')
  ok('the recipe works after the errors', await getEvent(client, ULID), { id: ULID, flake: FLAKE })
  ok('the failed INSERTs stored nothing', await one(client, 'SELECT count(*)::int AS n FROM events'), { n: 3 })
}

// ulidflakes above 2^53, with low bits set, so that going through a Number changes them.
const BIG_FLAKES = [2n ** 63n - 1n, FLAKE_BIGINT + 1n, 2n ** 53n + 1n, 0x7edcba9876543211n]

async function precisionChecks() {
  for (const n of BIG_FLAKES) {
    ok(`${n} is not exact as a Number (so the checks below would see a loss)`, BigInt(Number(n)) === n, false)
  }
  ok('the largest ulidflake', flakeOf(2n ** 63n - 1n), '7ZZZZZZZZZZZZ')

  const client = new pg.Client({ database: DATABASE })
  await client.connect()
  try {
    useBigInt(client)
    for (const [i, n] of BIG_FLAKES.entries()) {
      const id = ulidOfUuid(`00000000-0000-0000-0000-0000000000${10 + i}`)
      await addEventBigInt(client, id, n)
      ok(`BigInt ${n} written exactly`, await one(client, `SELECT flake::text AS t FROM events WHERE id = '${id}'`), { t: flakeOf(n) })
      ok(`BigInt ${n} read back exactly`, await getFlakeBigInt(client, id), n)
      ok(`${n} read as its exact text form`, await getEvent(client, id), { id, flake: flakeOf(n) })
    }
    // The text form written back, read as a BigInt and as text.
    const id = ulidOfUuid('00000000-0000-0000-0000-000000000020')
    await addEvent(client, id, '7zzzzzzzzzzzz')
    ok('the largest ulidflake as text, read as BigInt', await getFlakeBigInt(client, id), 2n ** 63n - 1n)
    ok('the largest ulidflake as text, read as text', await getEvent(client, id), { id, flake: '7ZZZZZZZZZZZZ' })
    await addEventBigInt(client, ulidOfUuid('00000000-0000-0000-0000-000000000021'), null)
    ok('a NULL BigInt', await getFlakeBigInt(client, ulidOfUuid('00000000-0000-0000-0000-000000000021')), null)

    // Why the recipe writes $2::bigint: a BigInt sent as a ulidflake is parsed as Crockford text,
    // silently when it has 13 digits.
    const { rows } = await client.query('SELECT $1::ulidflake::bigint AS n', [1234567890123n])
    ok('13 decimal digits sent as a ulidflake are another value', [typeof rows[0].n, rows[0].n === 1234567890123n], ['bigint', false])
    await fails('17 decimal digits sent as a ulidflake', client.query('SELECT $1::ulidflake', [FLAKE_BIGINT]), '22P02', /expected 13 characters, found 17/)
    await fails('2^63 as a BigInt parameter', addEventBigInt(client, ULID, 2n ** 63n), '22003', /out of range for type bigint/)
    await fails('-1 as a BigInt parameter', addEventBigInt(client, ULID, -1n), '22003', /out of range for type ulidflake/)
    await stillUsable(client, 'the out-of-range ulidflakes')
  } finally {
    await client.end()
  }
}

async function binaryChecks(client) {
  // Binary parameters: a Buffer is sent in the binary format, whatever `binary` says.
  const binId = ulidOfUuid('0191d1a8-8f3c-7e41-b2a6-5c3e9f0d7a18')
  await addEvent(client, uuidBytes('0191d1a8-8f3c-7e41-b2a6-5c3e9f0d7a18'), bigintBytes(FLAKE_BIGINT + 1n))
  ok('binary parameters in an INSERT', await getEvent(client, binId), { id: binId, flake: flakeOf(FLAKE_BIGINT + 1n) })
  ok('a binary ulid parameter in WHERE', await getEvent(client, uuidBytes(ULID_UUID)), { id: ULID, flake: FLAKE })
  ok(
    'binary parameters are the uuid\'s 16 and the bigint\'s 8 bytes',
    (await client.query('SELECT $1::ulid AS id, $2::ulidflake AS flake', [uuidBytes(ULID_UUID), bigintBytes(2n ** 63n - 1n)])).rows,
    [{ id: ULID, flake: '7ZZZZZZZZZZZZ' }],
  )
  await addEvent(client, uuidBytes('0191d1a8-8f3c-7e41-b2a6-5c3e9f0d7a19'), null)
  ok('a binary ulid with a NULL ulidflake', await getEvent(client, ulidOfUuid('0191d1a8-8f3c-7e41-b2a6-5c3e9f0d7a19')), {
    id: ulidOfUuid('0191d1a8-8f3c-7e41-b2a6-5c3e9f0d7a19'),
    flake: null,
  })

  await fails('a 15-byte binary ulid', addEvent(client, Buffer.alloc(15), null), '22P03', /invalid binary ulid: expected 16 bytes, found 15/)
  await stillUsable(client, 'a 15-byte binary ulid')
  await fails('a 17-byte binary ulid in WHERE', getEvent(client, Buffer.alloc(17)), '22P03', /invalid binary ulid: expected 16 bytes, found 17/)
  await stillUsable(client, 'a 17-byte binary ulid')
  await fails('a binary ulidflake with the sign bit', addEvent(client, ULID, bigintBytes(-1n)), '22P03', /invalid binary ulidflake/)
  await stillUsable(client, 'a negative binary ulidflake')
  await fails('a 7-byte binary ulidflake', addEvent(client, ULID, Buffer.alloc(7)), '22P03', /invalid binary ulidflake/)
  await stillUsable(client, 'a 7-byte binary ulidflake')

  // Binary results. With no glue, pg hands a binary value of a type it has no parser for to
  // pg-types' fallback, String(buffer): the bytes decoded as UTF-8. A Buffer takes a binary
  // parser for the type's OID, which an extension type only has once installed: looked up here.
  const plainUuid = '00112233-4455-6677-0011-223344556677' // every byte below 0x80
  const plainFlake = 0x0011223344556677n
  const query = {
    text: 'SELECT $1::ulid AS id, $2::ulidflake AS flake, NULL::ulid AS none',
    values: [ulidOfUuid(plainUuid), flakeOf(plainFlake)],
    binary: true,
  }
  let result = await client.query(query)
  ok('binary results are binary', result.fields.map((f) => f.format), ['binary', 'binary', 'binary'])
  ok(
    'binary results without glue: the bytes as a UTF-8 string',
    [result.rows[0].id, result.rows[0].flake],
    [uuidBytes(plainUuid).toString(), bigintBytes(plainFlake).toString()],
  )
  ok('a NULL binary result is null', result.rows[0].none, null)

  const oids = await one(client, "SELECT 'ulid'::regtype::oid AS ulid, 'ulidflake'::regtype::oid AS flake")
  ok('the result columns carry the OIDs of ulid and ulidflake', result.fields.map((f) => f.dataTypeID), [oids.ulid, oids.flake, oids.ulid])
  const raw = new pg.Client({ database: DATABASE })
  await raw.connect()
  try {
    raw.setTypeParser(oids.ulid, 'binary', (bytes) => bytes)
    raw.setTypeParser(oids.flake, 'binary', (bytes) => bytes)
    result = await raw.query(query)
    ok('a binary ulid result is the uuid\'s 16 bytes', result.rows[0].id, uuidBytes(plainUuid))
    ok('a binary ulidflake result is the bigint\'s 8 bytes', result.rows[0].flake, bigintBytes(plainFlake))
    ok('a NULL binary result is still null', result.rows[0].none, null)

    // Bytes of 0x80 and more: node-postgres reads every value as a UTF-8 string first
    // (brianc/node-postgres#3495), so a byte sequence that is not valid UTF-8 comes back as
    // U+FFFD, and binary results are not usable for these types. The check compares with exactly
    // that damage to the bytes ulid_send and ulidflake_send must have sent: wrong bytes from the
    // server fail it, and so does a driver that keeps the bytes (then a binary parser for the
    // looked-up OIDs can go in the recipe).
    const damaged = (bytes) => Buffer.from(bytes.toString('utf8'), 'utf8')
    result = await raw.query({ text: 'SELECT $1::ulid AS id, $2::ulidflake AS flake', values: [ULID, FLAKE], binary: true })
    ok(
      'node-postgres still damages binary results (#3495), in exactly this way',
      [result.rows[0].id, result.rows[0].flake],
      [damaged(uuidBytes(ULID_UUID)), damaged(bigintBytes(FLAKE_BIGINT))],
    )
    ok('and the damage shows', damaged(uuidBytes(ULID_UUID)).equals(uuidBytes(ULID_UUID)), false)

    // `binary: true` without parameters: the simple query protocol, text results.
    result = await raw.query({ text: `SELECT '${ULID}'::ulid AS id`, binary: true })
    ok('binary: true without parameters gives text', [result.fields[0].format, result.rows[0].id], ['text', ULID])
    result = await raw.query({ text: `SELECT '${plainFlake}'::bigint::ulidflake AS f`, binary: true, queryMode: 'extended' })
    ok('queryMode extended makes it binary', [result.fields[0].format, result.rows[0].f], ['binary', bigintBytes(plainFlake)])
  } finally {
    await raw.end()
  }
}

async function main() {
  const admin = new pg.Client({ database: 'postgres' })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`)
  await admin.query(`CREATE DATABASE ${DATABASE}`)
  try {
    const client = new pg.Client({ database: DATABASE })
    await client.connect()
    try {
      await client.query('CREATE EXTENSION ulid')
      await client.query('CREATE TABLE events (id ulid, flake ulidflake)')
      await textChecks(client)
      await precisionChecks()
      await binaryChecks(client)
    } finally {
      await client.end()
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`)
    await admin.end()
  }
  const version = createRequire(import.meta.url)('pg/package.json').version
  console.log(
    `driver (node-postgres ${version}, Node ${process.version}): ${checks} checks, ` +
      'text and binary parameters, text results, binary results (lossy in node-postgres: #3495)',
  )
  console.log('  ok')
}

try {
  await main()
} catch (error) {
  console.error(`FAIL: ${error.message}`)
  if (!(error instanceof assert.AssertionError)) console.error(error.stack)
  process.exitCode = 1
}
