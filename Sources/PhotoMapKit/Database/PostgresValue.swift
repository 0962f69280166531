// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// A value sent as a statement's parameter (`$1`…), never spliced into SQL text. NULL is NULL;
/// booleans, 64-bit integers, doubles and bytes go as themselves, in PostgreSQL's binary format with
/// their type, so none is turned into text and parsed back; text goes as text, its type left to the
/// statement (a column, a cast).
enum PostgresValue: Equatable {
    case null
    case text(String)
    case bool(Bool)
    case int64(Int64)
    case double(Double)
    /// Bytes (a `bytea`).
    case bytes(Data)

    static func integer(_ value: Int) -> PostgresValue { .int64(Int64(value)) }

    /// `value` made by `make`, or NULL when there is none.
    static func optional<T>(_ value: T?, _ make: (T) -> PostgresValue) -> PostgresValue { value.map(make) ?? .null }

    /// The type's OID as pg_type numbers it (bool, int8, float8, bytea); 0 leaves it to the statement.
    var type: UInt32 {
        switch self {
        case .null, .text: 0
        case .bool: 16
        case .int64: 20
        case .double: 701
        case .bytes: 17
        }
    }

    /// libpq's format code: 0 text, 1 binary.
    var format: Int32 {
        if case .text = self { 0 } else { 1 }
    }

    /// The bytes sent: text ended by a NUL, binary values in network byte order; nil for NULL.
    var wire: Data? {
        switch self {
        case .null: nil
        case let .text(text): Data(text.utf8) + [0]
        case let .bool(value): Data([value ? 1 : 0])
        case let .int64(value): withUnsafeBytes(of: value.bigEndian) { Data($0) }
        case let .double(value): withUnsafeBytes(of: value.bitPattern.bigEndian) { Data($0) }
        case let .bytes(data): data
        }
    }

    /// The value as a field of a text-format COPY row, escaped (`PostgresConnection.copyField`).
    var copyField: String {
        switch self {
        case .null: "\\N"
        case let .text(text): PostgresConnection.copyField(text)
        case let .bool(value): value ? "t" : "f"
        case let .int64(value): String(value)
        case let .double(value):
            value.isNaN ? "NaN" : value.isInfinite ? (value < 0 ? "-Infinity" : "Infinity") : String(value)
        // bytea's hex form, its backslash escaped: made directly, as a record's bytes are kilobytes and no
        // hex digit needs escaping.
        case let .bytes(data): "\\\\x" + SHA256.hex(digest: data)
        }
    }
}
