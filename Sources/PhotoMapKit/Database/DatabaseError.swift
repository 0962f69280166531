// SPDX-License-Identifier: Apache-2.0
/// What can go wrong with the PostgreSQL database that holds state shared by several machines. Every
/// case names the server as `DatabaseAddress.description` does: never with the password.
public enum DatabaseError: Error, CustomStringConvertible, Sendable, Equatable {
    /// `--database` (or PHOTOMAP_DATABASE) is not a connection string libpq accepts.
    case invalidAddress(reason: String)
    /// The server could not be reached, or refused the connection.
    case unreachable(server: String, reason: String)
    /// The connection broke during a statement (the server stopped or restarted).
    case connectionLost(server: String, reason: String)
    /// The connection broke during a COMMIT: the transaction may or may not have been kept.
    case outcomeUnknown(server: String, reason: String)
    /// Every connection of the pool stayed lent for `seconds`.
    case busy(server: String, seconds: Int)
    /// A statement ran past `statement_timeout`, or waited past `lock_timeout` for a lock held elsewhere.
    case timedOut(server: String, reason: String)
    /// A statement failed; `state` is PostgreSQL's SQLSTATE.
    case statementFailed(server: String, reason: String, state: String)
    /// A column did not hold what photomap reads from it (`type` is PostgreSQL's type OID).
    case unreadableColumn(server: String, column: String, expected: String, type: Int)
    /// The database's schema is older than this photomap's (0: never migrated).
    case schemaTooOld(server: String, found: Int, known: Int)
    /// The database's schema is newer than this photomap knows: a newer photomap migrated it.
    case schemaTooNew(server: String, found: Int, known: Int)

    /// Whether the database is away or overloaded rather than refusing: a served page answers 503 and
    /// the request is worth trying again shortly (every write photomap makes may be repeated).
    public var isUnavailable: Bool {
        switch self {
        case .unreachable, .connectionLost, .outcomeUnknown, .busy, .timedOut: true
        default: false
        }
    }

    /// What failed, with what.
    public var description: String {
        switch self {
        case let .invalidAddress(reason): "the database address is not valid: \(reason)"
        case let .unreachable(server, reason): "cannot connect to the database \(server): \(reason)"
        case let .connectionLost(server, reason): "the connection to the database \(server) was lost: \(reason)"
        case let .outcomeUnknown(server, reason):
            "the connection to the database \(server) was lost during a COMMIT, whose outcome is unknown: \(reason)"
        case let .busy(server, seconds):
            "no connection to the database \(server) came free within \(seconds) s"
        case let .timedOut(server, reason): "the database \(server) took too long: \(reason)"
        case let .statementFailed(server, reason, state):
            "the database \(server) refused a statement: \(reason) (SQLSTATE \(state))"
        case let .unreadableColumn(server, column, expected, type):
            "the database \(server) answered with a column \(column) that is not \(expected) (type OID \(type))"
        case let .schemaTooOld(server, found, known):
            "the database \(server) has photomap's schema version \(found), older than this photomap's \(known)"
        case let .schemaTooNew(server, found, known):
            "the database \(server) has photomap's schema version \(found), newer than this photomap's \(known)"
        }
    }
}
