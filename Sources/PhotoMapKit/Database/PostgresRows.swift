// SPDX-License-Identifier: Apache-2.0
import CPQ
import Foundation

/// A statement's rows. Each column is decoded to what its reader asks for from what PostgreSQL sent
/// (text, or its binary form in a binary result) and checked against the column's own type: a column
/// that is not what photomap expects is an error naming it, never a silent nil.
final class PostgresRows {
    private let result: OpaquePointer
    private let server: String

    init(_ result: OpaquePointer, server: String) {
        self.result = result
        self.server = server
    }

    deinit {
        PQclear(result)
    }

    var count: Int { Int(PQntuples(result)) }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    /// A text column (a binary result's text is its UTF-8).
    func text(_ row: Int, _ column: Int) -> String? {
        bytes(row, column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The column's bytes as sent: a binary result's `bytea`, or any column's text.
    func bytes(_ row: Int, _ column: Int) -> Data? {
        guard !isNull(row, column), let value = PQgetvalue(result, Int32(row), Int32(column)) else { return nil }
        return Data(bytes: value, count: Int(PQgetlength(result, Int32(row), Int32(column))))
    }

    /// An integer column (int2, int4, int8).
    func int64(_ row: Int, _ column: Int) throws(DatabaseError) -> Int64? {
        guard let value = bytes(row, column) else { return nil }
        let decoded: Int64?
        switch (isBinary(column), PQftype(result, Int32(column))) {
        case (true, Self.int8) where value.count == 8: decoded = Self.bigEndian(value, as: Int64.self)
        case (true, Self.int4) where value.count == 4: decoded = Self.bigEndian(value, as: Int32.self).map(Int64.init)
        case (true, Self.int2) where value.count == 2: decoded = Self.bigEndian(value, as: Int16.self).map(Int64.init)
        case (false, Self.int8), (false, Self.int4), (false, Self.int2):
            decoded = Int64(String(decoding: value, as: UTF8.self))
        default: decoded = nil
        }
        guard let decoded else { throw unreadable(column, as: "an integer") }
        return decoded
    }

    /// An integer column, as `Int`.
    func integer(_ row: Int, _ column: Int) throws(DatabaseError) -> Int? {
        try int64(row, column).map { Int($0) }
    }

    /// A floating-point column (float4, float8; an integer one widened).
    func real(_ row: Int, _ column: Int) throws(DatabaseError) -> Double? {
        guard let value = bytes(row, column) else { return nil }
        let type = PQftype(result, Int32(column))
        if type == Self.int8 || type == Self.int4 || type == Self.int2 {
            return try int64(row, column).map(Double.init)
        }
        let decoded: Double?
        switch (isBinary(column), type) {
        case (true, Self.float8) where value.count == 8:
            decoded = Self.bigEndian(value, as: UInt64.self).map(Double.init(bitPattern:))
        case (true, Self.float4) where value.count == 4:
            decoded = Self.bigEndian(value, as: UInt32.self).map { Double(Float(bitPattern: $0)) }
        case (false, Self.float8), (false, Self.float4), (false, Self.numeric):
            decoded = Double(String(decoding: value, as: UTF8.self))
        default: decoded = nil
        }
        guard let decoded else { throw unreadable(column, as: "a number") }
        return decoded
    }

    /// A boolean column.
    func bool(_ row: Int, _ column: Int) throws(DatabaseError) -> Bool? {
        guard let value = bytes(row, column) else { return nil }
        guard PQftype(result, Int32(column)) == Self.boolean else { throw unreadable(column, as: "a boolean") }
        switch (isBinary(column), value.first) {
        case (true, 1?), (false, UInt8(ascii: "t")?): return true
        case (true, 0?), (false, UInt8(ascii: "f")?): return false
        default: throw unreadable(column, as: "a boolean")
        }
    }

    // Type OIDs as pg_type numbers them.
    private static let boolean: Oid = 16, int8: Oid = 20, int2: Oid = 21, int4: Oid = 23
    private static let float4: Oid = 700, float8: Oid = 701, numeric: Oid = 1700

    private func isBinary(_ column: Int) -> Bool { PQfformat(result, Int32(column)) == 1 }

    private func unreadable(_ column: Int, as expected: String) -> DatabaseError {
        let name = PQfname(result, Int32(column)).map { String(cString: $0) } ?? "\(column + 1)"
        return .unreadableColumn(
            server: server, column: name, expected: expected, type: Int(PQftype(result, Int32(column))))
    }

    private static func bigEndian<T: FixedWidthInteger>(_ data: Data, as type: T.Type) -> T? {
        guard data.count == MemoryLayout<T>.size else { return nil }
        return T(bigEndian: data.withUnsafeBytes { $0.loadUnaligned(as: T.self) })
    }
}
