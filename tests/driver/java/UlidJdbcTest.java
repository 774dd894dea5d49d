// A real client driver over the wire: the PostgreSQL JDBC driver (pgjdbc, Debian's
// libpostgresql-jdbc-java), both directions, text and binary.
//
// What pgjdbc does with the extension's types (checked below against pgjdbc 42.5):
// - A type it has no class for (every extension type: their OIDs are not fixed) comes back as
//   its text: rs.getString() is the 26- (ulid) or 13-character (ulidflake) form, rs.getObject()
//   a PGobject holding that text. Such columns stay text even once a statement is server-side
//   prepared, since pgjdbc asks for binary only for the OIDs it knows.
// - The recipe therefore casts in SQL to the built-in twins, uuid and bigint (binary coercible,
//   the same bits and order). Those pgjdbc reads as text for the first 5 executions of a
//   statement and in binary from the 6th (prepareThreshold=5 makes the 5th a server-side
//   prepared statement, described before the 6th asks for binary; -1 = binary from the first),
//   unless binaryTransfer=false. UUID and long parameters are sent in binary whenever
//   binaryTransfer is on (the default), in text otherwise; the server's uuid_recv / int8recv
//   read them, and the casts in the SQL make them ulid / ulidflake. Both formats are tested, on
//   three connections (all text, the defaults, binary from the first execution).
// - The extension's own binary format (ulid_send/ulid_recv, ulidflake_send/ulidflake_recv) is
//   reached only with glue that the recipe does not need: a PGobject subclass implementing
//   PGBinaryObject, registered with PGConnection.addDataType("ulid", ...), which also turns on
//   binary transfer of that type's OID both ways. The test does it (RawId) to check 22P03 and
//   the wire bytes. Merely listing the OIDs in binaryTransferEnable makes results binary but
//   leaves getString() and getObject() without a value (null), so do not do that.
//
// pgjdbc has no Unix-socket support without extra jars, so this connects over TCP, to
// PGHOSTADDR (default 127.0.0.1) and PGPORT, as PGUSER (PGPASSWORD if set); run.sh checks that
// the server listens there. The recipe (between the markers) is copied verbatim into the
// README; the test calls it. Exits non-zero on the first failed check.

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.postgresql.PGConnection;
import org.postgresql.PGResultSetMetaData;
import org.postgresql.util.PGBinaryObject;
import org.postgresql.util.PGobject;
import org.postgresql.util.PSQLException;

// recipe:begin
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.UUID;

// ulid and ulidflake with pgjdbc and the JDK alone: no driver glue, the casts go in the SQL.
// pgjdbc does not know these types and sees their text. Cast them to their built-in twins, uuid
// and bigint (the same 128 / 64 bits, in the same order; the casts cost nothing), and the
// driver's own types follow: a ulid is a java.util.UUID, a ulidflake a long.
//   read:  SELECT id::uuid, flake::bigint   rs.getObject(i, UUID.class), rs.getObject(i, Long.class)
//          SELECT id (no cast)              rs.getString(i): "01ARZ3NDEKTSV4RRFFQ69G5FAV"
//   write: WHERE id = ?::ulid AND flake = ?::ulidflake, with ps.setObject(i, uuid),
//          ps.setLong(i, n) or ps.setString(i, text). An INSERT needs no cast for a UUID or a
//          long (assignment casts), but does for a String (?::ulid): pgjdbc sends it as varchar.
// NULL reads as null and is sent as setObject(i, null) / setNull(i, Types.BIGINT). A bad text
// id is an SQLException with SQLSTATE 22P02; a negative long as a ulidflake, 22003.
final class Events {
    record Event(UUID id, String text, Long flake) {}

    static void insert(Connection c, UUID id, Long flake) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (id, flake) VALUES (?, ?)")) {
            ps.setObject(1, id);                  // a UUID (or null): the ulid with the same bits
            ps.setObject(2, flake, Types.BIGINT); // a long (or null): the ulidflake with that value
            ps.executeUpdate();
        }
    }

    static Event byId(Connection c, UUID id) throws SQLException {
        return find(c, "id = ?::ulid", id);
    }

    static Event byText(Connection c, String id) throws SQLException {
        return find(c, "id = ?::ulid", id);
    }

    static Event byFlake(Connection c, long flake) throws SQLException {
        return find(c, "flake = ?::ulidflake", flake);
    }

    private static Event find(Connection c, String where, Object key) throws SQLException {
        String sql = "SELECT id::uuid, id, flake::bigint FROM events WHERE " + where;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                return new Event(rs.getObject(1, UUID.class), rs.getString(2), rs.getObject(3, Long.class));
            }
        }
    }
}
// recipe:end

public class UlidJdbcTest {
    static final String ULID = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    static final UUID ULID_UUID = UUID.fromString("01563e3a-b5d3-d676-4c61-efb99302bd5b");
    static final String FLAKE_TEXT = "00CMXB6TAK4SA";
    static final long FLAKE = 14246757444195114L;
    static final String BAD_ULID = "01ARZ3NDEKTSV4RRFFQ69G5FAU"; // U is not Crockford base32
    static final String BAD_FLAKE = "00CMXB6TAK4SU";
    static final UUID MAX_UUID = new UUID(-1L, -1L); // 7ZZZZZZZZZZZZZZZZZZZZZZZZZ
    static final UUID ZERO_UUID = new UUID(0L, 0L);
    static final Events.Event KNOWN = new Events.Event(ULID_UUID, ULID, FLAKE);
    static final String DB = "ulid_jdbc";
    static final HexFormat HEX = HexFormat.of();

    static int checks = 0;

    static void check(String label, Object got, Object want) {
        if (!Objects.equals(got, want)) {
            System.out.println("FAIL: " + label + ": got " + got + ", want " + want);
            System.exit(1);
        }
        checks++;
    }

    interface SqlAction {
        void run() throws SQLException;
    }

    // The driver's own exception, with the server's SQLSTATE and message.
    static void checkError(String label, String sqlstate, String message, SqlAction action) {
        String got;
        try {
            action.run();
            got = "no error";
        } catch (SQLException e) {
            got = (e instanceof PSQLException ? "PSQLException" : e.getClass().getName()) + " " + e.getSQLState()
                    + (e.getMessage().contains(message) ? "" : " with message " + e.getMessage());
        }
        check(label, got, "PSQLException " + sqlstate);
    }

    // After an error (autocommit: no transaction is left aborted), the connection still answers.
    static void checkUsable(String label, Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id::text, flake::text FROM events WHERE id = ?::ulid")) {
            ps.setObject(1, ULID_UUID);
            try (ResultSet rs = ps.executeQuery()) {
                check(label + ", then the connection still works", firstRowText(rs), ULID + " " + FLAKE_TEXT);
            }
        }
    }

    // The first row's columns as text, separated by spaces; null if there is no row.
    static String firstRowText(ResultSet rs) throws SQLException {
        if (!rs.next()) return null;
        List<String> columns = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) columns.add(rs.getString(i));
        return String.join(" ", columns);
    }

    static Connection connect(String db, String... settings) throws SQLException {
        String host = System.getenv().getOrDefault("PGHOSTADDR", "127.0.0.1");
        String port = System.getenv().getOrDefault("PGPORT", "5432");
        Properties props = new Properties();
        props.setProperty("user", System.getenv().getOrDefault("PGUSER", "postgres"));
        if (System.getenv("PGPASSWORD") != null) props.setProperty("password", System.getenv("PGPASSWORD"));
        for (String s : settings) props.setProperty(s.substring(0, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
        if (host.contains(":")) host = "[" + host + "]";
        return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/" + db, props);
    }

    // Crockford base32, decoded here independently of the server.
    static BigInteger crockford(String text) {
        BigInteger v = BigInteger.ZERO;
        for (char ch : text.toUpperCase().toCharArray()) {
            int digit = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".indexOf(ch);
            if (digit < 0) throw new IllegalArgumentException("not Crockford base32: " + text);
            v = v.shiftLeft(5).or(BigInteger.valueOf(digit));
        }
        return v;
    }

    static UUID uuidOfText(String text) {
        BigInteger v = crockford(text);
        return new UUID(v.shiftRight(64).longValue(), v.longValue());
    }

    static byte[] bytesOf(UUID u) {
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
    }

    static byte[] bytesOf(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    // Test glue, not the recipe: a value of an extension type as its raw binary wire bytes.
    // Registered with addDataType, it makes pgjdbc send and receive the type in binary.
    public static class RawId extends PGobject implements PGBinaryObject {
        private static final long serialVersionUID = 1L;
        private byte[] bytes;

        public RawId() {}

        RawId(String type, byte[] bytes) {
            this.type = type;
            this.bytes = bytes;
        }

        @Override
        public void setByteValue(byte[] value, int offset) {
            bytes = Arrays.copyOfRange(value, offset, value.length);
        }

        @Override
        public int lengthInBytes() {
            return bytes == null ? 0 : bytes.length; // 0: pgjdbc sends a NULL of the type
        }

        @Override
        public void toBytes(byte[] target, int offset) {
            System.arraycopy(bytes, 0, target, offset, bytes.length);
        }

        @Override
        public String getValue() { // the text form; in binary it is never sent
            return bytes == null ? null : "\\x" + HEX.formatHex(bytes);
        }

        String hex() { return bytes == null ? null : HEX.formatHex(bytes); }
    }

    // The result formats (0 text, 1 binary) of `SELECT id::uuid, flake::bigint, id, flake`,
    // executed `times` times with one PreparedStatement.
    static List<String> formats(Connection c, int times) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id::uuid, flake::bigint, id, flake FROM events WHERE id = ?::ulid")) {
            ps.setObject(1, ULID_UUID);
            for (int i = 0; i < times; i++) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    PGResultSetMetaData md = rs.getMetaData().unwrap(PGResultSetMetaData.class);
                    out.add("" + md.getFormat(1) + md.getFormat(2) + md.getFormat(3) + md.getFormat(4));
                }
            }
        }
        return out;
    }

    // The recipe, both directions, on a connection of the given mode.
    static void recipe(String mode, Connection c, List<String> expectedFormats) throws SQLException {
        c.createStatement().execute("TRUNCATE events");
        Events.insert(c, ULID_UUID, FLAKE);
        check(mode + ": result formats of the recipe's casts (uuid, bigint, ulid, ulidflake), per execution",
                formats(c, expectedFormats.size()), expectedFormats);

        // Ids as parameters, in WHERE and in INSERT; ids in the results.
        check(mode + ": a UUID inserted, found by UUID", Events.byId(c, ULID_UUID), KNOWN);
        check(mode + ": found by its lower-case text", Events.byText(c, ULID.toLowerCase()), KNOWN);
        check(mode + ": found by its long", Events.byFlake(c, FLAKE), KNOWN);
        Events.insert(c, ZERO_UUID, 0L);
        check(mode + ": the smallest ulid and ulidflake", Events.byId(c, ZERO_UUID),
                new Events.Event(ZERO_UUID, "00000000000000000000000000", 0L));

        // NULLs both ways: sent in the INSERT, read back as null.
        Events.insert(c, MAX_UUID, null);
        check(mode + ": the largest ulid (a negative UUID half), NULL ulidflake", Events.byId(c, MAX_UUID),
                new Events.Event(MAX_UUID, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", null));
        Events.insert(c, null, Long.MAX_VALUE);
        check(mode + ": NULL ulid, the largest ulidflake (Long.MAX_VALUE)", Events.byFlake(c, Long.MAX_VALUE),
                new Events.Event(null, null, Long.MAX_VALUE));
        check(mode + ": a NULL UUID in WHERE matches nothing", Events.byId(c, null), null);
        try (PreparedStatement ps = c.prepareStatement("SELECT ?::ulid IS NULL, ?::ulidflake IS NULL")) {
            ps.setObject(1, null);
            ps.setNull(2, Types.BIGINT);
            try (ResultSet rs = ps.executeQuery()) {
                check(mode + ": NULL parameters arrive as NULL ulid and ulidflake", firstRowText(rs), "t t");
            }
        }

        // A query returning ids: generated ones, each read back through the recipe by its text,
        // by its UUID and by its long, the UUID and long checked against the text decoded here.
        c.createStatement().execute("INSERT INTO events SELECT gen_ulid(), gen_ulidflake() FROM generate_series(1, 100)");
        int rows = 0, wrong = 0;
        String both = "SELECT id, flake FROM events WHERE id IS NOT NULL AND flake IS NOT NULL";
        try (ResultSet rs = c.createStatement().executeQuery(both)) {
            while (rs.next()) {
                rows++;
                String text = rs.getString(1), flakeText = rs.getString(2);
                Events.Event want = new Events.Event(uuidOfText(text), text, crockford(flakeText).longValueExact());
                if (!want.equals(Events.byText(c, text.toLowerCase())) || !want.equals(Events.byId(c, want.id()))
                        || !want.equals(Events.byFlake(c, want.flake()))) {
                    System.out.println("  mismatch: " + want + " vs " + Events.byText(c, text));
                    wrong++;
                }
            }
        }
        check(mode + ": rows with both ids", rows, 102);
        check(mode + ": generated ids that do not read back as their decoded text", wrong, 0);

        // Bad ids as parameters: the driver's error with the SQLSTATE; the connection goes on.
        checkError(mode + ": a bad ulid text", "22P02", "invalid input syntax for type ulid: \"" + BAD_ULID + "\"",
                () -> Events.byText(c, BAD_ULID));
        checkUsable(mode + ": a bad ulid text", c);
        checkError(mode + ": a bad ulidflake text", "22P02", "invalid input syntax for type ulidflake", () -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM events WHERE flake = ?::ulidflake")) {
                ps.setString(1, BAD_FLAKE);
                ps.executeQuery().close();
            }
        });
        checkUsable(mode + ": a bad ulidflake text", c);
        checkError(mode + ": a negative long as a ulidflake", "22003", "out of range for type ulidflake",
                () -> Events.byFlake(c, -1L));
        checkUsable(mode + ": a negative long", c);
    }

    public static void main(String[] args) throws Exception {
        try {
            run();
        } catch (Exception e) {
            System.out.println("FAIL: unexpected exception");
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }

    static void run() throws Exception {
        String driver;
        try (Connection admin = connect("postgres"); Statement s = admin.createStatement()) {
            driver = admin.getMetaData().getDriverVersion();
            s.execute("DROP DATABASE IF EXISTS " + DB);
            s.execute("CREATE DATABASE " + DB);
        }
        check("the test's Crockford decoding of the known ulid", uuidOfText(ULID), ULID_UUID);
        check("the test's Crockford decoding of the known ulidflake", crockford(FLAKE_TEXT).longValueExact(), FLAKE);

        int ulidOid, flakeOid;
        try (Connection c = connect(DB); Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION ulid");
            s.execute("CREATE TABLE events (id ulid UNIQUE, flake ulidflake)");
            try (ResultSet rs = s.executeQuery("SELECT 'ulid'::regtype::oid, 'ulidflake'::regtype::oid")) {
                rs.next();
                ulidOid = rs.getInt(1);
                flakeOid = rs.getInt(2);
            }
        }

        // The recipe: all text; pgjdbc's defaults (text, then binary from the 6th execution);
        // binary from the first execution. The ulid and ulidflake columns stay text throughout.
        try (Connection c = connect(DB, "binaryTransfer=false")) {
            recipe("text", c, List.of("0000", "0000", "0000", "0000", "0000", "0000"));
        }
        try (Connection c = connect(DB)) {
            recipe("default", c, List.of("0000", "0000", "0000", "0000", "0000", "1100", "1100"));
        }
        try (Connection c = connect(DB, "prepareThreshold=-1")) {
            recipe("binary", c, List.of("1100", "1100"));
        }

        try (Connection c = connect(DB)) {
            c.createStatement().execute("TRUNCATE events");
            Events.insert(c, ULID_UUID, FLAKE);
            // Why the recipe says a String needs ?::ulid in an INSERT.
            checkError("a String inserted into a ulid column without a cast", "42804",
                    "column \"id\" is of type ulid but expression is of type character varying", () -> {
                        try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (id) VALUES (?)")) {
                            ps.setString(1, ULID);
                            ps.executeUpdate();
                        }
                    });
            // What getObject gives without a cast: a PGobject of type ulid holding the text.
            try (ResultSet rs = c.createStatement().executeQuery("SELECT id, flake FROM events")) {
                rs.next();
                PGobject id = (PGobject) rs.getObject(1), flake = (PGobject) rs.getObject(2);
                check("getObject without a cast: PGobjects with the text",
                        List.of(id.getType(), id.getValue(), flake.getType(), flake.getValue()),
                        List.of("ulid", ULID, "ulidflake", FLAKE_TEXT));
            }
            // The other glue for text: a PGobject typed ulid is a ulid parameter, no cast needed;
            // its text reaches ulid_in directly.
            PGobject typed = new PGobject();
            typed.setType("ulid");
            typed.setValue(ULID.toLowerCase());
            try (PreparedStatement ps = c.prepareStatement("SELECT flake::bigint FROM events WHERE id = ?")) {
                ps.setObject(1, typed);
                try (ResultSet rs = ps.executeQuery()) {
                    check("a PGobject typed ulid as a parameter, no cast", rs.next() ? rs.getLong(1) : null, FLAKE);
                }
                typed.setValue(BAD_ULID);
                checkError("a bad PGobject typed ulid", "22P02", "invalid input syntax for type ulid", () -> {
                    ps.setObject(1, typed);
                    ps.executeQuery().close();
                });
            }
            checkUsable("a bad PGobject typed ulid", c);
        }

        // The extension's own binary format, through the test's glue (RawId): ulid_send/ulid_recv
        // and ulidflake_send/ulidflake_recv, the 16 bytes of the uuid and the 8 of the bigint.
        try (Connection c = connect(DB, "prepareThreshold=-1")) {
            PGConnection pg = c.unwrap(PGConnection.class);
            pg.addDataType("ulid", RawId.class);
            pg.addDataType("ulidflake", RawId.class);
            try (PreparedStatement ps = c.prepareStatement("SELECT id, flake FROM events WHERE id = ? AND flake = ?")) {
                ps.setObject(1, new RawId("ulid", bytesOf(ULID_UUID)));
                ps.setObject(2, new RawId("ulidflake", bytesOf(FLAKE)));
                try (ResultSet rs = ps.executeQuery()) {
                    check("binary: ulid and ulidflake parameters in WHERE find the row", rs.next(), true);
                    PGResultSetMetaData md = rs.getMetaData().unwrap(PGResultSetMetaData.class);
                    check("binary: the ulid and ulidflake results are binary and the uuid's and bigint's bytes",
                            List.of(md.getFormat(1), md.getFormat(2),
                                    ((RawId) rs.getObject(1)).hex(), ((RawId) rs.getObject(2)).hex()),
                            List.of(1, 1, HEX.formatHex(bytesOf(ULID_UUID)), HEX.formatHex(bytesOf(FLAKE))));
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO events (id, flake) VALUES (?, ?)")) {
                ps.setObject(1, new RawId("ulid", bytesOf(MAX_UUID)));
                ps.setObject(2, new RawId("ulidflake", bytesOf(Long.MAX_VALUE)));
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT id::text, flake::text FROM events WHERE id = ?")) {
                ps.setObject(1, new RawId("ulid", bytesOf(MAX_UUID)));
                try (ResultSet rs = ps.executeQuery()) {
                    check("binary: ulid and ulidflake parameters in an INSERT", firstRowText(rs),
                            "7ZZZZZZZZZZZZZZZZZZZZZZZZZ 7ZZZZZZZZZZZZ");
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT ? IS NULL, ? IS NULL, NULL::ulid, NULL::ulidflake")) {
                ps.setObject(1, new RawId("ulid", null));
                ps.setObject(2, new RawId("ulidflake", null));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    PGResultSetMetaData md = rs.getMetaData().unwrap(PGResultSetMetaData.class);
                    check("binary: NULL ulid and ulidflake both ways",
                            Arrays.asList(rs.getBoolean(1), rs.getBoolean(2),
                                    md.getFormat(3), rs.getObject(3), md.getFormat(4), rs.getObject(4)),
                            Arrays.asList(true, true, 1, null, 1, null));
                }
            }
            checkError("binary: a ulid of 15 bytes", "22P03", "invalid binary ulid", () -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT ?::text")) {
                    ps.setObject(1, new RawId("ulid", Arrays.copyOf(bytesOf(ULID_UUID), 15)));
                    ps.executeQuery().close();
                }
            });
            checkUsable("binary: a ulid of 15 bytes", c);
            checkError("binary: a ulidflake of 7 bytes", "22P03", "invalid binary ulidflake", () -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT ?::text")) {
                    ps.setObject(1, new RawId("ulidflake", Arrays.copyOf(bytesOf(FLAKE), 7)));
                    ps.executeQuery().close();
                }
            });
            checkError("binary: a ulidflake with the sign bit", "22P03", "invalid binary ulidflake", () -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT ?::text")) {
                    ps.setObject(1, new RawId("ulidflake", bytesOf(-1L)));
                    ps.executeQuery().close();
                }
            });
            checkUsable("binary: bad ulidflakes", c);
        }

        // binaryTransferEnable with the OIDs and no class for them: binary results whose bytes
        // getBytes() returns, but getString() and getObject()'s value are null. Not a way to go.
        try (Connection c = connect(DB, "prepareThreshold=-1", "binaryTransferEnable=" + ulidOid + "," + flakeOid);
             PreparedStatement ps = c.prepareStatement("SELECT id, flake FROM events WHERE id = ?::ulid")) {
            ps.setObject(1, ULID_UUID);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                check("binaryTransferEnable alone: raw bytes, no text",
                        Arrays.asList(HEX.formatHex(rs.getBytes(1)), HEX.formatHex(rs.getBytes(2)),
                                rs.getString(1), ((PGobject) rs.getObject(1)).getValue()),
                        Arrays.asList(HEX.formatHex(bytesOf(ULID_UUID)), HEX.formatHex(bytesOf(FLAKE)), null, null));
            }
        }

        try (Connection admin = connect("postgres"); Statement s = admin.createStatement()) {
            s.execute("DROP DATABASE " + DB);
        }
        System.out.println("driver (pgjdbc " + driver + ", Java " + Runtime.version().feature() + "): " + checks
                + " checks, the recipe in text and binary, the types' own binary format both ways");
        System.out.println("  ok");
    }
}
