// SPDX-License-Identifier: Apache-2.0
import Dispatch
import PhotoMapSupport

/// A few connections to one database, shared by a process's threads: each caller borrows one for
/// the duration of `withConnection`, waiting at most `acquireTimeout` while all are lent. A connection
/// the server dropped while it sat idle (a restart, a failover) is found as it is lent, or on its first
/// statement, and replaced once without the caller seeing it, so a server back after a restart answers
/// every request again without restarting photomap.
public final class PostgresPool: Sendable {
    /// The database.
    public let address: DatabaseAddress
    /// How long a caller waits for a connection before `busy`.
    public let acquireTimeout: Int
    // Connections not lent out; each is used by one borrower at a time.
    private let idle = IdleResources<PostgresConnection>()
    // Counts the connections that may still be lent.
    private let slots: DispatchSemaphore

    /// A pool of at most `size` connections to `address`; connects once now, so an unreachable
    /// server is an error at start.
    public init(address: DatabaseAddress, size: Int = 4, acquireTimeout: Int = 5) throws(DatabaseError) {
        self.address = address
        self.acquireTimeout = acquireTimeout
        slots = DispatchSemaphore(value: max(size, 1))
        let first = try PostgresConnection(address: address)
        idle.putBack(first)
    }

    /// Runs `body` with a connection of the pool's; a server away is `unreachable` (or `connectionLost`),
    /// no connection free in time `busy`. A connection lost on `body`'s first statement died while idle:
    /// `body` runs again, once, on it reconnected (nothing of it reached the server; were it an autocommit
    /// write that did, it is an upsert or replacement, safe to repeat).
    @discardableResult
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        guard slots.wait(timeout: .now() + .seconds(acquireTimeout)) == .success else {
            throw DatabaseError.busy(server: address.description, seconds: acquireTimeout)
        }
        defer { slots.signal() }
        let (connection, reused) = try lend()
        defer { idle.putBack(connection) }
        do {
            return try body(connection)
        } catch DatabaseError.connectionLost where reused && connection.statementsSinceLent == 1 {
            try revive(connection)
            return try body(connection)
        }
    }

    /// Runs `body` in one transaction on a connection of the pool's.
    @discardableResult
    func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { connection in try connection.transaction { try body(connection) } }
    }

    /// An idle connection that still looks alive (else reconnected), or a new one; and whether it was idle.
    private func lend() throws -> (PostgresConnection, reused: Bool) {
        guard let connection = idle.take() else { return (try PostgresConnection(address: address), false) }
        if !connection.looksAlive() { try revive(connection) }
        connection.lent()
        return (connection, true)
    }

    private func revive(_ connection: PostgresConnection) throws(DatabaseError) {
        guard connection.reset() else {
            throw .unreachable(server: address.description, reason: "the server is not answering")
        }
        connection.lent()
    }
}
