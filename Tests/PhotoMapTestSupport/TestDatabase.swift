// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// A fresh PostgreSQL database for one test, made from the template of the throwaway cluster that
/// `scripts/with-postgres` starts (its admin URL in PHOTOMAP_TEST_POSTGRES): PostGIS is in it already.
public struct TestDatabase: Sendable {
    /// The database's URL, for `--database` and `DatabaseAddress`.
    public let url: String

    /// The cluster's admin URL; a test that needs it fails, with how to get it, when it is not set.
    public static func adminURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["PHOTOMAP_TEST_POSTGRES"], !url.isEmpty else {
            throw CocoaError(
                .featureUnsupported,
                userInfo: [
                    NSDebugDescriptionErrorKey:
                        "PHOTOMAP_TEST_POSTGRES is not set: run the tests through scripts/test (or scripts/with-postgres)"
                ])
        }
        return url
    }

    /// The database's name.
    public let name: String

    /// Makes a database of its own from the template, migrated by `photomap db migrate`'s own code
    /// unless `migrated` is false (as a database no one has migrated yet).
    public init(migrated: Bool = true) throws {
        let admin = try Self.adminURL()
        name = "pm_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try Self.psql(admin, "CREATE DATABASE \(name) TEMPLATE photomap_template")
        url = admin.replacingOccurrences(of: "/postgres?", with: "/\(name)?")
        if migrated { try DatabaseSchema.migrate(pool(size: 1)) }
    }

    /// The URL of a new role made by deploy/roles.sql on this database (migrated by its owner): it may
    /// read and write photomap's rows and create nothing. Its password is `password`.
    public func leastPrivilegedURL(password: String = "Sw0rdf1sh-SECRET") throws -> String {
        let role = "pm_app_" + UUID().uuidString.prefix(8).lowercased()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [
            "-q", "-v", "role=\(role)", "-v", "password=\(password)", "-d", url, "-f",
            LoopbackServer.repositoryRoot.appendingPathComponent("deploy/roles.sql").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit(within: 120, "psql -f deploy/roles.sql")
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: "deploy/roles.sql failed"])
        }
        return url.replacingOccurrences(of: "postgresql://postgres@", with: "postgresql://\(role):\(password)@")
    }

    /// A pool on this database.
    public func pool(size: Int = 4) throws -> PostgresPool {
        try PostgresPool(address: DatabaseAddress(url), size: size)
    }

    /// How many word beginnings the search index's `index_word_rows` counts otherwise than a count of
    /// every record's gives ("0" when the kept counts are exact).
    public static func wordCountsDiffering(_ url: String) throws -> String {
        try psql(
            url,
            """
            SELECT count(*) FROM (SELECT word, records FROM index_word_rows WHERE records <> 0) kept
            FULL JOIN (SELECT word, count(*) AS records FROM index_records, index_word_beginnings(words) AS word
                GROUP BY word) counted USING (word)
            WHERE kept.records IS DISTINCT FROM counted.records
            """)
    }

    /// Runs `sql` through psql on the database at `url`.
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-qAt", "-v", "ON_ERROR_STOP=1", url, "-c", sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let watchdog = Watchdog(process.processIdentifier, limit: 300, "psql -c \(sql)")
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.finish()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: "psql failed: \(sql)"])
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What schema version 14 added (`trip_days`, its triggers, `local_photos.written` and the index of the
    /// day), dropped: a test that fakes an older schema runs it before dropping more.
    public static let withoutTripDays = """
        DROP TABLE trip_days; DROP FUNCTION trip_days_added, trip_days_removed, trip_days_changed CASCADE;
        ALTER TABLE local_photos DROP COLUMN written; DROP INDEX IF EXISTS local_photos_day;
        """
}

/// Where a test keeps photomap's shared state: the cache folder's files, or PostgreSQL. The same
/// behaviour tests run on both.
public enum StateEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    case files, postgres

    public var description: String { rawValue }

    /// A place of this engine's for one test: `folder` for files, a database of its own for PostgreSQL.
    public func place(in folder: URL) throws -> StatePlace {
        switch self {
        case .files: StatePlace(folder: folder, database: nil)
        case .postgres: StatePlace(folder: folder, database: try TestDatabase())
        }
    }
}

/// One test's state, on one engine.
public struct StatePlace: Sendable {
    public let folder: URL
    public let database: TestDatabase?

    /// The stores (a new pool each time for the database: as another process would have).
    public func stores(answerTimeToLive: TimeInterval = 3_600) throws -> StateStores {
        guard let database else { return .files(cacheDirectory: folder, answerTimeToLive: answerTimeToLive) }
        return try .database(database.pool(), answerTimeToLive: answerTimeToLive)
    }

    /// The global options that select this place for the `photomap` binary.
    public var arguments: [String] {
        ["--cache", folder.path] + (database.map { ["--database", $0.url] } ?? [])
    }
}
