// SPDX-License-Identifier: Apache-2.0
import CPQ
import Foundation

/// One libpq connection. Not Sendable: it serves one thread at a time, handed out by `PostgresPool`.
final class PostgresConnection {
    private let handle: OpaquePointer
    let address: DatabaseAddress
    /// Statements run since the pool last lent the connection: a loss on the first means it died idle.
    private(set) var statementsSinceLent = 0

    /// What each connection sets unless the address says otherwise: a 5 s wait to connect; TCP
    /// keepalives, so a server gone without a word (a failover, a cable) is noticed within a minute and
    /// a half rather than hours; and timeouts, so a request never waits on a lock held elsewhere or on a
    /// runaway statement for longer than a page may take; and no JIT compilation, which costs a search
    /// over a large table 100 ms to save a few. An address's own `options` replace these
    /// (`?options=-c%20statement_timeout%3D30s`); bulk work lifts them (`liftTimeouts`).
    static let defaults: KeyValuePairs<String, String> = [
        "connect_timeout": "5", "application_name": "photomap",
        "keepalives": "1", "keepalives_idle": "30", "keepalives_interval": "10", "keepalives_count": "3",
        "options": "-c statement_timeout=5s -c lock_timeout=2s -c jit=off",
    ]

    /// Connects to `address` with `defaults`.
    init(address: DatabaseAddress) throws(DatabaseError) {
        let keywords = Self.defaults.map(\.key) + ["dbname"]
        let values = Self.defaults.map(\.value) + [address.connectionString]
        // The address comes last, so what it sets overrides the defaults before it.
        let connection = keywords.withCStrings { keywordPointers in
            values.withCStrings { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let connection else { throw .unreachable(server: address.description, reason: "out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = address.redacted(Self.message(PQerrorMessage(connection)))
            PQfinish(connection)
            throw .unreachable(server: address.description, reason: reason)
        }
        photomap_pq_quiet(connection)
        handle = connection
        self.address = address
    }

    deinit {
        PQfinish(handle)
    }

    /// The value libpq uses for a connection keyword (`keepalives_idle`), as `PQconninfo` reports it.
    func option(_ keyword: String) -> String? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// Whether the connection is gone (the server stopped); `reset()` may bring it back.
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Connects again after a loss; false when the server is still away.
    func reset() -> Bool {
        PQreset(handle)
        return !isBroken
    }

    /// Whether the connection still looks alive, read without a round trip: a server that closed it
    /// while it sat idle (a restart) left an end of file or a FATAL message, which reading notices.
    func looksAlive() -> Bool {
        PQconsumeInput(handle) == 1 && !isBroken
    }

    /// Called by the pool as it lends the connection.
    func lent() {
        statementsSinceLent = 0
    }

    /// Lifts the request paths' timeouts until the transaction ends: a migration, a load of millions
    /// of rows or an import takes as long as it takes, and waits its turn for the locks it needs.
    func liftTimeouts() throws(DatabaseError) {
        try execute("SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0")
    }

    /// Runs one statement with `values` bound to `$1`…; its rows, in text unless `binaryResult`.
    @discardableResult
    func execute(
        _ sql: String, _ values: [PostgresValue] = [],
        binaryResult: Bool = false
    ) throws(DatabaseError) -> PostgresRows {
        statementsSinceLent += 1
        // Without parameters the simple protocol runs several statements at once (a migration).
        guard !values.isEmpty || binaryResult else { return try checked(PQexec(handle, sql)) }
        let result = withParameters(values) { count, types, pointers, lengths, formats in
            PQexecParams(handle, sql, count, types, pointers, lengths, formats, binaryResult ? 1 : 0)
        }
        return try checked(result)
    }

    /// Runs `body` in one transaction: all of it, or (on any error) none of it; or, when the
    /// connection is lost during the COMMIT, `outcomeUnknown` (every write photomap makes is an upsert
    /// or a replacement, so trying it again is safe).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        let result: T
        do {
            result = try body()
        } catch {
            if !isBroken { _ = try? execute("ROLLBACK") }
            throw error
        }
        do {
            try execute("COMMIT")
        } catch let .connectionLost(server, reason) {
            throw DatabaseError.outcomeUnknown(server: server, reason: reason)
        }
        return result
    }

    /// Sends `rows` to a `COPY … FROM STDIN` in text format (each row's fields already escaped by
    /// `copyField`, joined by tabs, ended by a newline).
    func copy(_ sql: String, rows: some Sequence<String>) throws(DatabaseError) {
        statementsSinceLent += 1
        _ = try checked(PQexec(handle, sql), accepting: PGRES_COPY_IN)
        var buffer = Data()
        func flush() -> Bool {
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer.withUnsafeBytes { bytes in
                PQputCopyData(handle, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count)) == 1
            }
        }
        var sent = true
        for row in rows where sent {
            buffer.append(contentsOf: row.utf8)
            if buffer.count >= 1 << 20 { sent = flush() }
        }
        if sent { sent = flush() }
        PQputCopyEnd(handle, sent ? nil : "photomap could not send the rows")
        // The COPY's outcome, then the end of results.
        var failure: DatabaseError?
        while let result = PQgetResult(handle) {
            do { _ = try checked(result) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        if !sent { throw lost("could not send the rows") }
    }

    /// Adds `rows` to `table` by one `INSERT … ON CONFLICT (key)`, from a temporary table shaped like it that
    /// one `COPY` fills (one row alone goes as parameters): the last row of a key replaces the one kept
    /// (`replacing`), or the one kept (else the batch's first) stays. Each row holds `columns`' values in
    /// their order: the one list names the columns of the COPY and of the statement; a column left out
    /// takes its default. Inside a transaction.
    func merge(
        into table: String, columns: [String], key: String, replacing: Bool, rows: [[PostgresValue]]
    ) throws(DatabaseError) {
        guard !rows.isEmpty else { return }
        let names = columns.joined(separator: ", ")
        let conflict =
            replacing
            ? "DO UPDATE SET " + columns.filter { $0 != key }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            : "DO NOTHING"
        // One row (a photo imported alone) goes as parameters: a temporary table costs 0.6–0.8 ms to make.
        if rows.count == 1 {
            let parameters = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
            try execute(
                "INSERT INTO \(table) (\(names)) VALUES (\(parameters)) ON CONFLICT (\(key)) \(conflict)", rows[0])
            return
        }
        let incoming = "incoming_" + table
        try execute(
            "CREATE TEMPORARY TABLE \(incoming) (LIKE \(table) INCLUDING DEFAULTS, ordinal bigserial) ON COMMIT DROP")
        try copy(
            "COPY \(incoming) (\(names)) FROM STDIN",
            rows: rows.lazy.map { $0.map(\.copyField).joined(separator: "\t") + "\n" })
        try execute(
            """
            INSERT INTO \(table) (\(names)) SELECT DISTINCT ON (\(key)) \(names) FROM \(incoming)
            ORDER BY \(key), ordinal \(replacing ? "DESC" : "ASC") ON CONFLICT (\(key)) \(conflict)
            """)
    }

    /// A field of a text-format COPY row: `\N` for null, backslash, tab and line ends escaped (and NUL,
    /// which no PostgreSQL text holds, dropped). Byte by byte: every one escaped is ASCII, so the UTF-8 of
    /// the rest passes unchanged.
    static func copyField(_ value: String?) -> String {
        guard let value else { return "\\N" }
        let special: (UInt8) -> Bool = { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0 }
        guard value.utf8.contains(where: special) else { return value }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(value.utf8.count + 8)
        for byte in value.utf8 {
            switch byte {
            case 0x5C: escaped += [0x5C, 0x5C]
            case 0x09: escaped += [0x5C, UInt8(ascii: "t")]
            case 0x0A: escaped += [0x5C, UInt8(ascii: "n")]
            case 0x0D: escaped += [0x5C, UInt8(ascii: "r")]
            case 0: continue
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private func checked(_ result: OpaquePointer?, accepting accepted: ExecStatusType = PGRES_TUPLES_OK)
        throws(DatabaseError) -> PostgresRows
    {
        guard let result else { throw lost(Self.message(PQerrorMessage(handle))) }
        let status = PQresultStatus(result)
        guard status == accepted || status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let reason = address.redacted(Self.message(PQresultErrorMessage(result)))
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            PQclear(result)
            if isBroken || state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03" {
                throw lost(reason)
            }
            // query_canceled (statement_timeout) and lock_not_available (lock_timeout).
            if state == "57014" || state == "55P03" { throw .timedOut(server: address.description, reason: reason) }
            throw .statementFailed(server: address.description, reason: reason, state: state)
        }
        return PostgresRows(result, server: address.description)
    }

    private func lost(_ reason: String) -> DatabaseError {
        .connectionLost(server: address.description, reason: address.redacted(reason))
    }

    /// libpq's message, on one line.
    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        let full = text.map { String(cString: $0) } ?? "unknown error"
        return full.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// The parameters as libpq takes them: each value's bytes (nil for NULL) copied to memory that
    /// stays put while libpq reads it, their lengths (read for binary values only), formats and types.
    private func withParameters<R>(
        _ values: [PostgresValue],
        _ body: (
            Int32, UnsafePointer<UInt32>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?
        ) -> R
    ) -> R {
        let wires = values.map(\.wire)
        let copies: [UnsafeMutableRawBufferPointer?] = wires.map { wire in
            wire.map { bytes in
                let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
                copy.copyBytes(from: bytes)
                return copy
            }
        }
        defer { copies.forEach { $0?.deallocate() } }
        let pointers = copies.map { $0?.baseAddress.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) } }
        let lengths = wires.map { Int32($0?.count ?? 0) }
        let formats = values.map(\.format)
        let types = values.map(\.type)
        return types.withUnsafeBufferPointer { types in
            pointers.withUnsafeBufferPointer { pointers in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(
                            Int32(values.count), types.baseAddress, pointers.baseAddress, lengths.baseAddress,
                            formats.baseAddress)
                    }
                }
            }
        }
    }
}

extension Array where Element == String {
    /// The strings as a NULL-ended array of C strings, valid inside `body`.
    func withCStrings<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
