// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Foundation

/// What can go wrong with one of photomap's SQLite databases (the local index, the cache journal).
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// SQLite's message.
    public let message: String
    /// SQLite's result code.
    public let code: Int32
    /// The database file.
    public let path: String
    /// The errno of the system call that failed under it (`sqlite3_system_errno`), 0 when none did.
    public let systemError: Int32

    /// An error of `code` with SQLite's `message`, for the database at `path`.
    public init(message: String, code: Int32, path: String, systemError: Int32 = 0) {
        self.message = message
        self.code = code
        self.path = path
        self.systemError = systemError
    }

    /// Another connection holds the lock past the busy timeout: trying again later may succeed.
    package var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }

    /// The file is not a database, or a damaged one: only making it anew helps.
    package var isNotADatabase: Bool { code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT }

    /// The disk is full (or the quota spent): SQLITE_FULL, or an I/O error whose write ran out of room
    /// (growing the WAL index fails as SQLITE_IOERR with ENOSPC).
    public var isDiskFull: Bool {
        code & 0xFF == SQLITE_FULL || systemError == ENOSPC || systemError == EDQUOT
    }

    /// A sentence naming the file and SQLite's reason (and the system's, when a system call failed).
    public var description: String {
        let system = systemError == 0 ? "" : ": \(String(cString: strerror(systemError)))"
        return "the database \(path) failed: \(message) (SQLite \(code)\(system))"
    }
}

/// One SQLite connection. Not Sendable: a connection belongs to one thread (or serial queue) at a
/// time; parallel searches each open their own (WAL lets readers run beside a writer).
package final class SQLiteDatabase {
    private let handle: OpaquePointer
    package let path: String

    /// Opens (creating it unless `readOnly`) the database at `path`.
    package init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        var opened: OpaquePointer?
        let mode = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let code = sqlite3_open_v2(path, &opened, mode | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(opened)
            throw SQLiteError(message: message, code: code, path: path)
        }
        handle = opened
        self.path = path
        // Another process writing the index makes readers wait a little rather than fail.
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs statements that return no rows.
    package func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "error"
            sqlite3_free(message)
            throw SQLiteError(message: text, code: code, path: path, systemError: systemError(under: code))
        }
    }

    /// A prepared statement with `values` bound to its `?` parameters in order.
    package func prepare(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code) }
        let prepared = SQLiteStatement(statement: statement, database: self)
        try prepared.bind(values)
        return prepared
    }

    /// Runs `body` in one transaction: all of it, or (on error) none of it.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows the last INSERT, UPDATE or DELETE changed.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    package func error(_ code: Int32) -> SQLiteError {
        SQLiteError(
            message: String(cString: sqlite3_errmsg(handle)), code: code, path: path,
            systemError: systemError(under: code))
    }

    /// The errno under an I/O error; 0 under any other, for which the connection's last failed system call
    /// (`sqlite3_system_errno`) may be an older one that did not matter.
    private func systemError(under code: Int32) -> Int32 {
        [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN].contains(code & 0xFF) ? sqlite3_system_errno(handle) : 0
    }
}

/// A value bound to a statement.
package enum SQLiteValue {
    case text(String)
    case integer(Int64)
    case real(Double)
    /// Bytes, compared byte by byte (a prefix range of words).
    case blob([UInt8])
    case null
}

/// A prepared statement; `step()` walks its rows.
package final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    package init(statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit {
        sqlite3_finalize(statement)
    }

    package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case let .text(text): code = photomap_sqlite_bind_text(statement, index, text, -1)
            case let .integer(number): code = sqlite3_bind_int64(statement, index, number)
            case let .real(number): code = sqlite3_bind_double(statement, index, number)
            case let .blob(bytes):
                code = bytes.withUnsafeBytes {
                    photomap_sqlite_bind_blob(
                        statement, index, $0.baseAddress,
                        Int32($0.count))
                }
            case .null: code = sqlite3_bind_null(statement, index)
            }
            guard code == SQLITE_OK else { throw database.error(code) }
        }
    }

    /// Moves to the next row: true while there is one.
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(statement)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(code)
        }
    }

    package func text(_ column: Int32) -> String {
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }

    package func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : text(column)
    }

    package func real(_ column: Int32) -> Double? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_double(statement, column)
    }

    /// The column's bytes (text or blob), valid only inside `body`: no String made for them.
    package func withBytes<Result>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        // SQLite's order: the pointer first, then its length.
        let start = sqlite3_column_blob(statement, column)
        return body(
            UnsafeRawBufferPointer(
                start: start,
                count: start == nil ? 0 : Int(sqlite3_column_bytes(statement, column))))
    }

    package func integer(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
    }
}
