// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// `photomap db migrate|status`: the PostgreSQL database given with --database.
enum DatabaseCommand {
    static let spec = CommandSpec(
        name: "db",
        summary: "create or upgrade the shared PostgreSQL database, or show what it holds",
        discussion: """
            With --database URL (or PHOTOMAP_DATABASE), photomap keeps the local search index, Flickr's
            kept answers, the recently viewed photos and the Flickr call budget in PostgreSQL with PostGIS,
            so that any number of `photomap serve` instances on several machines share them. `db migrate`
            creates photomap's tables or upgrades them, once however many processes run it at once, as a
            role that may create tables (the database's owner); every other command only checks the schema
            version and stops (serve does not start) until it is this photomap's. Those commands then need
            only a role with SELECT, INSERT, UPDATE and DELETE on the tables: deploy/roles.sql makes one.
            The database needs the PostGIS extension available (Debian's postgresql-15-postgis-3); a role
            that may not create it needs it created once by its owner.
            """,
        options: [],
        arguments: Action.declared,
        examples: [
            .init("--database postgresql://photomap@db/photomap db migrate", "create or upgrade the schema"),
            .init("--database postgresql://photomap@db/photomap db status", "the schema version and the rows"),
        ])

    /// What `db` does.
    enum Action: String, CommandAction {
        case migrate, status

        var summary: String {
            switch self {
            case .migrate:
                "create photomap's tables, or upgrade them to this photomap's schema (the only command that changes "
                    + "it); count the search index's words again if an older photomap left them stale"
            case .status: "the schema version, the rows of each table, and the Flickr call budget left now"
            }
        }
    }

    static func run(_ options: ActionOptions<Action>, configuration: Services, console: Console) throws {
        let action = options.action
        guard let address = configuration.options.database else {
            throw UsageError("`photomap db` needs a database: --database URL or PHOTOMAP_DATABASE")
        }
        let pool = try PostgresPool(address: address, size: 1)
        switch action {
        case .migrate:
            let applied = try DatabaseSchema.migrate(pool)
            console.note(
                applied.isEmpty
                    ? "\(address): schema version \(DatabaseSchema.currentVersion), already current"
                    : "\(address): applied migration\(applied.count == 1 ? "" : "s") "
                        + "\(applied.map(String.init).joined(separator: ", ")); schema version \(DatabaseSchema.currentVersion)"
            )
            // Stale when an older photomap wrote after 13: a command's search starts this count too, but its
            // process ends first.
            if try PostgresIndex(pool: pool).healCounts(waiting: true) {
                console.note(
                    "\(address): the search index's word counts were stale (an older photomap wrote to this "
                        + "database); counted again")
            }
            if applied.contains(DatabaseSchema.audiencesVersion), applied.first != 1 {
                // Nothing imported before changes who sees it; new imports are private unless told otherwise.
                console.note(
                    "photos imported before keep their visibility: public, location included "
                        + "(`photomap visibility` changes it; new imports are private by default)")
            }
        case .status:
            let status = try DatabaseSchema.status(pool)
            var lines = [
                "database: \(address)",
                "server: PostgreSQL \(status.server), PostGIS \(status.postgis ?? "not installed")",
                "schema version: \(status.version) (this photomap's: \(DatabaseSchema.currentVersion))",
            ]
            lines += status.rows.map { "\($0.table): \($0.count) rows" }
            if status.version == DatabaseSchema.currentVersion, configuration.options.source == .flickr,
                let limiter = try configuration.rateLimiter(console: console)
            {
                let left = Int(try limiter.callsAvailableNow())
                lines.append(
                    "Flickr call budget: \(left) calls may go at once now, then \(limiter.callsPerHour) an hour")
            } else if status.version < DatabaseSchema.currentVersion {
                lines.append("run `photomap db migrate` to bring the schema up to date")
            }
            console.print(lines.joined(separator: "\n"))
        }
    }
}
