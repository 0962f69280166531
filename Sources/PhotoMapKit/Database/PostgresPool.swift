import Dispatch

/// A few connections to one database, shared by a process's threads: each caller borrows one for
/// the duration of `withConnection`, and waits while all are lent. A connection the server dropped
/// is reconnected the next time it is lent, so a server back after a restart is used again without
/// restarting photomap.
public final class PostgresPool: Sendable {
    /// The database.
    public let address: DatabaseAddress
    // Connections not lent out; each is used by one borrower at a time.
    private let idle = IdleResources<PostgresConnection>()
    // Counts the connections that may still be lent.
    private let slots: DispatchSemaphore

    /// A pool of at most `size` connections to `address`; connects once now, so an unreachable
    /// server is an error at start.
    public init(address: DatabaseAddress, size: Int = 4) throws(DatabaseError) {
        self.address = address
        slots = DispatchSemaphore(value: max(size, 1))
        let first = try PostgresConnection(address: address)
        idle.putBack(first)
    }

    /// Runs `body` with a connection of the pool's; a server away is `unreachable` (or `connectionLost`).
    @discardableResult
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let connection = try idle.take() ?? PostgresConnection(address: address)
        if connection.isBroken && !connection.reset() {
            throw DatabaseError.unreachable(server: address.description, reason: "the server is not answering")
        }
        defer { idle.putBack(connection) }
        return try body(connection)
    }

    /// Runs `body` in one transaction on a connection of the pool's.
    @discardableResult
    func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { connection in try connection.transaction { try body(connection) } }
    }
}
