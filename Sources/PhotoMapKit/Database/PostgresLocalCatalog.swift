// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The imported photos in PostgreSQL (`--database`): the same catalog as `LocalCatalog`, shared by every
/// server of a fleet. Files' paths are those of the machine that imported them: another machine makes an
/// image the cache lacks only when it sees the same files (shared storage).
public struct PostgresLocalCatalog: LocalCatalogStore {
    let pool: PostgresPool
    public var showsFenced = false
    public var audiences: Set<Audience> = Audience.seen(by: nil)

    /// Whether a row is shown without its location, in SQL: a fence holds it (unless `showsFenced`), or its
    /// location's audience is not among `audiences`.
    var hiddenColumn: String {
        let fenced = showsFenced ? "false" : "hidden"
        guard audiences != Set(Audience.allCases) else { return fenced }
        return "(\(fenced) OR location_audience NOT IN (\(Audience.sqlList(audiences))))"
    }

    /// Whether a row is listed at all, in SQL: its visibility is among `audiences`.
    var visibleRows: String {
        audiences == Set(Audience.allCases) ? "true" : "visibility IN (\(Audience.sqlList(audiences)))"
    }

    /// The catalog of `pool`'s database (migrated already by `photomap db migrate`, checked by `StateStores.database`).
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    public func files() throws -> [[UInt8]: LocalFileState] {
        try pool.withConnection { try Self.files(on: $0, where: "true", []) }
    }

    public func files(below roots: [[UInt8]]) throws -> [[UInt8]: LocalFileState] {
        try pool.withConnection { connection in
            var files: [[UInt8]: LocalFileState] = [:]
            // The root itself, and the range of paths that begin with it and a slash (on the primary key).
            for root in roots {
                let range = LocalFileState.pathRange(below: root)
                let below = try Self.files(
                    on: connection, where: "f.path = $1 OR (f.path >= $2 AND f.path < $3)",
                    [.bytes(Data(root)), .bytes(Data(range.lower)), .bytes(Data(range.upper))])
                files.merge(below) { first, _ in first }
            }
            return files
        }
    }

    private static func files(
        on connection: PostgresConnection, where condition: String, _ values: [PostgresValue]
    ) throws -> [[UInt8]: LocalFileState] {
        // Binary rows: the path comes as its bytes, the numbers and flags as themselves.
        let rows = try connection.execute(
            """
            SELECT f.path, f.size, f.modified, f.inode, f.photo, f.problem, f.other, p.latitude IS NOT NULL,
                   p.location_source
            FROM local_files f LEFT JOIN local_photos p ON p.id = f.photo WHERE \(condition)
            """, values, binaryResult: true)
        var files: [[UInt8]: LocalFileState] = [:]
        for row in 0..<rows.count {
            var state = LocalFileState(
                size: try rows.int64(row, 1) ?? 0, modified: try rows.int64(row, 2) ?? 0,
                inode: try rows.int64(row, 3) ?? 0)
            state.photo = rows.text(row, 4)
            state.problem = rows.text(row, 5)
            state.isOther = try rows.bool(row, 6) ?? false
            state.located = try rows.bool(row, 7) ?? false
            state.locationSource = rows.text(row, 8).flatMap(LocationSource.init(rawValue:))
            files[Array(rows.bytes(row, 0) ?? Data())] = state
        }
        return files
    }

    public func located(ids: [String]) throws -> [String: Bool] {
        let rows = try pool.withConnection { connection in
            try connection.execute(
                "SELECT id, latitude IS NOT NULL FROM local_photos WHERE id = ANY (string_to_array($1, ' '))",
                [.text(ids.joined(separator: " "))])
        }
        return Dictionary(
            try (0..<rows.count).map { (rows.text($0, 0) ?? "", try rows.bool($0, 1) ?? false) },
            uniquingKeysWith: { first, _ in first })
    }

    public func apply(_ changes: LocalCatalogChanges) throws -> Int {
        func number(_ value: Double?) -> PostgresValue { .optional(value, PostgresValue.double) }
        let places = changes.photos.map { _, place, _ in
            [
                .text(place.id), .text(place.shortName), .text(place.fullName),
                number(place.coordinate?.latitude), number(place.coordinate?.longitude),
            ] as [PostgresValue]
        }
        func text(_ value: String?) -> PostgresValue { .optional(value, PostgresValue.text) }
        let photos = try changes.photos.map { photo, place, taken in
            let capture = changes.captures[photo.id]
            let clock = capture?.clock
            return [
                .text(photo.id), .text(place.id), number(taken), number(photo.coordinate?.latitude),
                number(photo.coordinate?.longitude), .bytes(try JSONOutput.data(photo)), text(clock?.local),
                text(clock?.subSecond), .optional(clock?.utcOffsetSeconds, PostgresValue.integer),
                text(capture?.make), text(capture?.model), text(photo.locationSource?.rawValue), text(photo.dateTaken),
            ] as [PostgresValue]
        }
        let files = changes.files.map { path, state in
            [
                .bytes(Data(path)), .int64(state.size), .int64(state.modified), .int64(state.inode),
                .optional(state.photo, PostgresValue.text), .optional(state.problem, PostgresValue.text),
                .bool(state.isOther),
            ] as [PostgresValue]
        }
        // Paths as hex: bytes of any value, in one parameter.
        let paths = (changes.files.map(\.path) + changes.gone).map { path in
            path.map { String(format: "%02x", $0) }.joined()
        }.joined(separator: " ")
        return try pool.transaction { connection in
            try connection.liftTimeouts()
            let ids = changes.photos.map(\.photo.id).joined(separator: " ")
            // The photos this change may leave without a file: those its files held before, and its own.
            let holding = try connection.execute(
                """
                SELECT DISTINCT photo FROM local_files
                WHERE path = ANY (SELECT decode(hex, 'hex') FROM unnest(string_to_array($1, ' ')) hex)
                    AND photo IS NOT NULL
                """, [.text(paths)])
            let held = Set(changes.photos.map(\.photo.id)).union((0..<holding.count).compactMap { holding.text($0, 0) })
            // Photos there already keep their audiences; the new ones take the import's.
            let known = try connection.execute(
                "SELECT id FROM local_photos WHERE id = ANY (string_to_array($1, ' '))", [.text(ids)])
            let added = Set(changes.photos.map(\.photo.id)).subtracting(
                (0..<known.count).compactMap { known.text($0, 0) })
            try connection.merge(
                into: "local_places", columns: ["id", "short_name", "full_name", "latitude", "longitude"],
                key: "id", replacing: false, rows: places)
            try connection.merge(
                into: "local_photos",
                columns: [
                    "id", "place", "taken", "latitude", "longitude", "record", "clock", "subsecond", "clock_offset",
                    "make", "model", "location_source", "date_taken",
                ], key: "id", replacing: true, rows: photos)
            try connection.merge(
                into: "local_files", columns: ["path", "size", "modified", "inode", "photo", "problem", "other"],
                key: "path", replacing: true, rows: files)
            try connection.execute(
                """
                UPDATE local_photos SET visibility = $2, location_audience = $3
                WHERE id = ANY (string_to_array($1, ' '))
                """,
                [
                    .text(added.sorted().joined(separator: " ")), .text(changes.privacy.visibility.rawValue),
                    .text(changes.privacy.location.rawValue),
                ])
            for path in changes.gone {
                try connection.execute("DELETE FROM local_files WHERE path = $1", [.bytes(Data(path))])
            }
            // Photos no file holds any more (their files gone, or changed into other photos), of those the
            // change's files held before.
            let removed = try connection.execute(
                """
                DELETE FROM local_photos p WHERE p.id = ANY (string_to_array($1, ' '))
                    AND NOT EXISTS (SELECT 1 FROM local_files f WHERE f.photo = p.id)
                RETURNING id
                """, [.text(held.sorted().joined(separator: " "))]
            ).count
            try Self.refreshHidden(of: changes.photos.map(\.photo.id), on: connection)
            if changes.changesPhotos {
                try connection.execute("UPDATE local_version SET version = version + 1")
            }
            return removed
        }
    }

    public func version() throws -> Int {
        try pool.withConnection { try $0.execute("SELECT version FROM local_version").integer(0, 0) } ?? 0
    }

    public func places() throws -> [Place] {
        let hidden = hiddenColumn
        let (rows, fences) = try pool.withConnection { connection in
            (
                try connection.execute(
                    """
                    SELECT p.id, p.short_name, p.full_name, p.latitude, p.longitude, avg(f.latitude),
                           avg(f.longitude), count(*) AS photos
                    FROM local_places p JOIN (
                        SELECT CASE WHEN \(hidden) THEN $1 ELSE place END AS place,
                               CASE WHEN \(hidden) THEN NULL ELSE latitude END AS latitude,
                               CASE WHEN \(hidden) THEN NULL ELSE longitude END AS longitude
                        FROM local_photos WHERE \(visibleRows)) f ON f.place = p.id
                    GROUP BY p.id ORDER BY p.id = $1, photos DESC, p.full_name, p.id
                    """, [.text(LocalPlace.unlocatedID)]),
                showsFenced ? [] : try Self.fences(on: connection)
            )
        }
        return try (0..<rows.count).map { row in
            Place(
                id: rows.text(row, 0) ?? "", fullName: rows.text(row, 2) ?? "", shortName: rows.text(row, 1) ?? "",
                coordinate: fences.shownCentre(
                    own: Coordinate(latitude: try rows.real(row, 3), longitude: try rows.real(row, 4)),
                    mean: Coordinate(latitude: try rows.real(row, 5), longitude: try rows.real(row, 6))),
                type: "locality", typeID: 7, photoCount: try rows.integer(row, 7))
        }
    }

    public func photos(inPlace id: String, limit: Int) throws -> (photos: [Photo], total: Int) {
        let hidden = hiddenColumn
        // The photos without a location include the fenced ones; no other place does.
        let chosen =
            (id == LocalPlace.unlocatedID ? "(place = $1 OR \(hidden))" : "place = $1 AND NOT \(hidden)")
            + " AND \(visibleRows)"
        return try pool.withConnection { connection in
            let total =
                try connection.execute("SELECT count(*) FROM local_photos WHERE \(chosen)", [.text(id)])
                .integer(0, 0) ?? 0
            let rows = try connection.execute(
                """
                SELECT record, \(hidden) FROM local_photos WHERE \(chosen) ORDER BY taken DESC NULLS LAST, id LIMIT $2
                """, [.text(id), .integer(max(limit, 0))], binaryResult: true)
            return (try Self.decoded(rows), total)
        }
    }

    public func allPhotos() throws -> [Photo] {
        try Self.decoded(
            pool.withConnection { connection in
                try connection.execute(
                    "SELECT record, \(hiddenColumn) FROM local_photos WHERE \(visibleRows) ORDER BY id",
                    binaryResult: true)
            })
    }

    public func photo(id: String) throws -> Photo? {
        try Self.decoded(
            pool.withConnection { connection in
                try connection.execute(
                    "SELECT record, \(hiddenColumn) FROM local_photos WHERE id = $1 AND \(visibleRows)", [.text(id)],
                    binaryResult: true)
            }
        ).first
    }

    public func listed(ids: [String]) throws -> [String: Bool] {
        guard !ids.isEmpty else { return [:] }
        let list = try JSONOutput.text(ids)
        let rows = try pool.withConnection { connection in
            try connection.execute(
                """
                SELECT id, \(hiddenColumn) FROM local_photos
                WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND \(visibleRows)
                """, [.text(list)], binaryResult: true)
        }
        var listed: [String: Bool] = [:]
        for row in 0..<rows.count { listed[rows.text(row, 0) ?? ""] = try rows.bool(row, 1) == true }
        return listed
    }

    public func files(ofPhoto id: String) throws -> [(path: [UInt8], state: LocalFileState)] {
        let rows = try pool.withConnection { connection in
            try connection.execute(
                """
                SELECT path, size::text, modified::text, inode::text FROM local_files WHERE photo = $1
                """, [.text(id)], binaryResult: true)
        }
        return (0..<rows.count).map { row in
            func number(_ column: Int) -> Int64 {
                rows.bytes(row, column).flatMap { Int64(String(decoding: $0, as: UTF8.self)) } ?? 0
            }
            return (
                Array(rows.bytes(row, 0) ?? Data()),
                LocalFileState(size: number(1), modified: number(2), inode: number(3))
            )
        }
    }

    /// Rows of (record, hidden), as others may see them unless `showsFenced`.
    private static func decoded(_ rows: PostgresRows) throws -> [Photo] {
        let decoder = JSONDecoder()
        return try (0..<rows.count).map { row in
            let photo = try decoder.decode(Photo.self, from: rows.bytes(row, 0) ?? Data())
            return try rows.bool(row, 1) == true ? Geofence.withoutLocation(photo) : photo
        }
    }

    public func fences() throws -> [Geofence] {
        try pool.withConnection { try Self.fences(on: $0) }
    }

    public func add(_ fence: Geofence) throws {
        try pool.transaction { connection in
            let added = try connection.execute(
                "INSERT INTO local_fences VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING RETURNING name",
                [
                    .text(fence.name), .double(fence.centre.latitude), .double(fence.centre.longitude),
                    .double(fence.radius),
                ])
            guard added.count == 1 else { throw GeofenceError.duplicate(name: fence.name) }
            try Self.fencesChanged(near: fence, on: connection)
        }
    }

    public func removeFence(named name: String) throws {
        try pool.transaction { connection in
            let removed = try connection.execute(
                "DELETE FROM local_fences WHERE name = $1 RETURNING latitude, longitude, radius", [.text(name)])
            guard removed.count > 0 else { throw GeofenceError.unknown(name: name) }
            let fence = Coordinate(latitude: try removed.real(0, 0), longitude: try removed.real(0, 1)).map {
                Geofence(name: name, centre: $0, radius: (try? removed.real(0, 2)) ?? 0)
            }
            try Self.fencesChanged(near: fence, on: connection)
        }
    }

    public func locatedCoordinates() throws -> [(id: String, coordinate: Coordinate)] {
        try pool.withConnection { try Self.locatedCoordinates(on: $0) }
    }

    static func fences(on connection: PostgresConnection) throws -> [Geofence] {
        let rows = try connection.execute("SELECT name, latitude, longitude, radius FROM local_fences ORDER BY name")
        return try (0..<rows.count).compactMap { row in
            guard let centre = Coordinate(latitude: try rows.real(row, 1), longitude: try rows.real(row, 2)) else {
                return nil
            }
            return Geofence(name: rows.text(row, 0) ?? "", centre: centre, radius: try rows.real(row, 3) ?? 0)
        }
    }

    private static func locatedCoordinates(on connection: PostgresConnection) throws -> [(
        id: String, coordinate: Coordinate
    )] {
        let rows = try connection.execute("SELECT id, latitude, longitude FROM local_photos WHERE latitude IS NOT NULL")
        return try (0..<rows.count).compactMap { row in
            Coordinate(latitude: try rows.real(row, 1), longitude: try rows.real(row, 2)).map {
                (rows.text(row, 0) ?? "", $0)
            }
        }
    }

    /// Marks which of the photos `ids` the fences hold as hidden (every photo when nil), within the
    /// caller's transaction; the others keep theirs. A change refreshes the photos it wrote: a catalog's
    /// other photos cost nothing.
    static func refreshHidden(of ids: [String]?, on connection: PostgresConnection) throws {
        let fences = try fences(on: connection)
        // Imported photos' ids are "local-" and hex digits: a space never falls inside one.
        let chosen = ids.map { $0.joined(separator: " ") }
        let rows = try connection.execute(
            """
            SELECT id, latitude, longitude, hidden FROM local_photos
            WHERE $1::text IS NULL OR id = ANY (string_to_array($1, ' '))
            """, [.optional(chosen, PostgresValue.text)])
        // Only the rows whose flag changes are written (each write moves the map's aggregates).
        var shown: [String] = []
        var hidden: [String] = []
        for row in 0..<rows.count {
            let hides = fences.hide(Coordinate(latitude: try rows.real(row, 1), longitude: try rows.real(row, 2)))
            guard try rows.bool(row, 3) != hides else { continue }
            if hides { hidden.append(rows.text(row, 0) ?? "") } else { shown.append(rows.text(row, 0) ?? "") }
        }
        for (ids, flag) in [(shown, false), (hidden, true)] where !ids.isEmpty {
            try connection.execute(
                "UPDATE local_photos SET hidden = $2 WHERE id = ANY (string_to_array($1, ' '))",
                [.text(ids.joined(separator: " ")), .bool(flag)])
        }
        try keepUnlocated(on: connection)
    }

    /// Photos shown without a location (a fence's, or an audience's) are listed in its place.
    static func keepUnlocated(on connection: PostgresConnection) throws {
        let place = LocalPlace.unlocated
        try connection.execute(
            "INSERT INTO local_places VALUES ($1, $2, $3, NULL, NULL) ON CONFLICT (id) DO NOTHING",
            [.text(place.id), .text(place.shortName), .text(place.fullName)])
    }

    /// The photos that may lie within `fence`: those of its band of latitudes, the first test of
    /// `Geofence.contains` (a photo outside it is in no fence it did not lie in before).
    static func photos(near fence: Geofence, on connection: PostgresConnection) throws -> [String] {
        let band = fence.radius / 111_195 + 1e-9
        let rows = try connection.execute(
            "SELECT id FROM local_photos WHERE latitude BETWEEN $1 AND $2",
            [.double(fence.centre.latitude - band), .double(fence.centre.latitude + band)])
        return (0..<rows.count).compactMap { rows.text($0, 0) }
    }

    /// After `fence` came or went: the photos it holds hidden or shown, and the version moved on.
    private static func fencesChanged(near fence: Geofence?, on connection: PostgresConnection) throws {
        try refreshHidden(of: try fence.map { try photos(near: $0, on: connection) }, on: connection)
        try connection.execute("UPDATE local_version SET version = version + 1")
    }
}
