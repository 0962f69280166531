// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// Parameters reach PostgreSQL as the values they are: NULL as NULL, numbers and booleans in binary
/// with their own type, extremes intact, text never read as SQL.
@Suite("PostgreSQL parameters, bound as themselves")
struct PostgresValueTests {
    @Test("each value arrives with its type and exactly its value")
    func roundTrip() throws {
        let pool = try TestDatabase(migrated: false).pool(size: 1)
        let cases: [(PostgresValue, type: String, text: String)] = [
            (.int64(.max), "bigint", "9223372036854775807"),
            (.int64(.min), "bigint", "-9223372036854775808"),
            (.integer(-1), "bigint", "-1"),
            (.double(0.1), "double precision", "0.1"),
            (.double(-1.5e300), "double precision", "-1.5e+300"),
            (.double(.infinity), "double precision", "Infinity"),
            (.bool(true), "boolean", "true"),
            (.bool(false), "boolean", "false"),
            (.bytes(Data([0, 255, 10])), "bytea", "\\x00ff0a"),
        ]
        for (value, type, text) in cases {
            let found = try pool.withConnection { connection in
                let rows = try connection.execute("SELECT pg_typeof($1)::text, $1::text", [value])
                return [rows.text(0, 0), rows.text(0, 1)]
            }
            #expect(found == [type, text], "\(value)")
        }
        // Text leaves its type to the statement.
        let text = "it's'); DROP TABLE x; --"
        #expect(try pool.withConnection { try $0.execute("SELECT $1::text", [.text(text)]).text(0, 0) } == text)
        let null = try pool.withConnection { connection in
            try connection.execute(
                "SELECT $1::float8 IS NULL, $2::text IS NULL", [.null, .optional(nil as String?, PostgresValue.text)])
        }
        #expect(null.text(0, 0) == "t" && null.text(0, 1) == "t")
    }

    @Test("COPY's text fields carry every value back as itself: escapes, NUL dropped, UTF-8 and bytea")
    func copyRoundTrip() throws {
        let pool = try TestDatabase(migrated: false).pool(size: 1)
        let texts = ["tab\there", "line\nend\r", "back\\slash \\N", "a\u{0}b", "Zürich 東京 🗺", "", "\\x41"]
        let bytes = [Data(), Data([0, 92, 9, 10, 255]), Data((0..<4096).map { UInt8($0 % 256) })]
        let rows: [[PostgresValue]] =
            texts.enumerated().map { [.integer($0.offset), .text($0.element), .null] }
            + bytes.enumerated().map { [.integer(100 + $0.offset), .null, .bytes($0.element)] }
        let found = try pool.withConnection { connection in
            try connection.transaction {
                try connection.execute("CREATE TEMPORARY TABLE copied (n integer, t text, b bytea) ON COMMIT DROP")
                try connection.copy(
                    "COPY copied FROM STDIN", rows: rows.map { $0.map(\.copyField).joined(separator: "\t") + "\n" })
                let rows = try connection.execute("SELECT n, t, b FROM copied ORDER BY n", binaryResult: true)
                return try (0..<rows.count).map { row in
                    (try rows.integer(row, 0) ?? -1, rows.text(row, 1), rows.bytes(row, 2))
                }
            }
        }
        #expect(found.map(\.1) == texts.map { $0.replacingOccurrences(of: "\u{0}", with: "") } + bytes.map { _ in nil })
        #expect(found.map(\.2) == texts.map { _ in nil } + bytes)
    }

    @Test("rows decode to typed values, text or binary; a column that is not what is read is an error naming it")
    func typedRows() throws {
        let pool = try TestDatabase(migrated: false).pool(size: 1)
        let sql = """
            SELECT (-42)::int2, 7::int4, 9223372036854775807::int8, 1.5::float4, (-2.25)::float8, true, false,
                NULL::int8, 'word'::text AS title
            """
        for binary in [false, true] {
            try pool.withConnection { connection in
                let rows = try connection.execute(sql, binaryResult: binary)
                #expect(try rows.int64(0, 0) == -42 && rows.int64(0, 1) == 7 && rows.int64(0, 2) == .max)
                #expect(try rows.real(0, 3) == 1.5 && rows.real(0, 4) == -2.25 && rows.real(0, 1) == 7)
                #expect(try rows.bool(0, 5) == true && rows.bool(0, 6) == false)
                #expect(try rows.int64(0, 7) == nil)
                #expect(rows.text(0, 8) == "word")
                do {
                    _ = try rows.integer(0, 8)
                    Issue.record("text read as an integer")
                } catch {
                    #expect("\(error)".contains("column title that is not an integer"), "\(error)")
                }
                #expect(throws: DatabaseError.self) { try rows.bool(0, 1) }
            }
        }
    }

    @Test(
        "rows merged by COPY keep their types, escapes and NULLs; the batch's last row of a key replaces, or its first stays"
    )
    func copyMerge() throws {
        let pool = try TestDatabase(migrated: false).pool(size: 1)
        let columns = ["id", "number", "bytes", "flag", "note"]
        func row(_ id: String, _ number: Double?, _ bytes: [UInt8], _ flag: Bool, _ note: String?) -> [PostgresValue] {
            [
                .text(id), .optional(number, PostgresValue.double), .bytes(Data(bytes)), .bool(flag),
                .optional(note, PostgresValue.text),
            ]
        }
        let rows = [
            row("a", 1.5, [0, 92, 9], true, "tab\there\\ and \\N"), row("b", -1e-5, [], false, nil),
            row("a", nil, [255], false, "line\nend"),
        ]
        for replacing in [true, false] {
            let table = replacing ? "replaced" : "kept"
            let found = try pool.transaction { connection in
                try connection.execute(
                    "CREATE TABLE \(table) (id text PRIMARY KEY, number float8, bytes bytea NOT NULL, flag boolean NOT NULL, note text)"
                )
                try connection.merge(into: table, columns: columns, key: "id", replacing: replacing, rows: rows)
                let read = try connection.execute(
                    "SELECT id, number, encode(bytes, 'hex'), flag, note FROM \(table) ORDER BY id")
                return try (0..<read.count).map { index in
                    [
                        read.text(index, 0), try read.real(index, 1).map { String($0) }, read.text(index, 2),
                        try read.bool(index, 3).map { String($0) }, read.text(index, 4),
                    ]
                }
            }
            let a: [String?] =
                replacing
                ? ["a", nil, "ff", "false", "line\nend"] : ["a", "1.5", "005c09", "true", "tab\there\\ and \\N"]
            #expect(found == [a, ["b", "-1e-05", "", "false", nil]], "\(table)")
        }
    }
}
