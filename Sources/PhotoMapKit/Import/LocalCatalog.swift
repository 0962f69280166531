// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The imported photos, kept between runs in `{cache}/local-catalog.sqlite`: each file seen (its path,
/// size, modification time and inode, which decide whether a second import reads it again), each photo
/// (one per content, however many files hold it) with its place, and the places. Paths stay here: no
/// page, answer or listing shows them. One connection, not Sendable: a command opens its own.
public final class LocalCatalog: LocalCatalogStore {
    let database: SQLiteDatabase
    public var showsFenced = false
    public var audiences: Set<Audience> = Audience.seen(by: nil)
    /// Whether the catalog has geofences' columns: one made before them, opened to read, has none.
    private(set) var knowsFences = true
    /// Whether it has audiences' columns: one made before them, opened to read, holds public photos only.
    private(set) var knowsAudiences = true
    /// Whether it has the column of each record's time taken; one made before it, opened to read, has the
    /// time in the record alone.
    private(set) var knowsDateTaken = true
    /// Whether it has `trip_days`; trips in one made before it, opened to read, are found from its photos.
    private(set) var knowsTripDays = true

    /// The catalog file in a cache folder.
    public static func file(in cacheDirectory: URL) -> URL {
        cacheDirectory.appendingPathComponent("local-catalog.sqlite")
    }

    /// Opens (creating it unless `readOnly`) the catalog at `file`.
    public init(file: URL, readOnly: Bool = false) throws {
        if !readOnly {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(),
                withIntermediateDirectories: true)
        }
        database = try SQLiteDatabase(path: file.path, readOnly: readOnly)
        guard !readOnly else {
            let columns = try photoColumns()
            knowsFences = columns.contains("hidden")
            knowsAudiences = columns.contains("visibility")
            knowsDateTaken = columns.contains("date_taken")
            knowsTripDays = try hasTripDays()
            return
        }
        try database.execute(
            """
            PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
            CREATE TABLE IF NOT EXISTS files (path BLOB PRIMARY KEY, size INTEGER NOT NULL,
                modified INTEGER NOT NULL, inode INTEGER NOT NULL, photo TEXT, problem TEXT,
                other INTEGER NOT NULL);
            CREATE INDEX IF NOT EXISTS files_photo ON files (photo);
            CREATE TABLE IF NOT EXISTS photos (id TEXT PRIMARY KEY, place TEXT NOT NULL, taken REAL,
                latitude REAL, longitude REAL, record BLOB NOT NULL);
            CREATE INDEX IF NOT EXISTS photos_place ON photos (place, taken DESC);
            CREATE TABLE IF NOT EXISTS places (id TEXT PRIMARY KEY, short_name TEXT NOT NULL,
                full_name TEXT NOT NULL, latitude REAL, longitude REAL);
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS track_lines (digest BLOB PRIMARY KEY, position INTEGER NOT NULL,
                points BLOB NOT NULL);
            CREATE TABLE IF NOT EXISTS fences (name TEXT PRIMARY KEY, latitude REAL NOT NULL,
                longitude REAL NOT NULL, radius REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS location_edits (position INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
                owner TEXT NOT NULL, before BLOB NOT NULL, after BLOB NOT NULL);
            """)
        try addCaptureColumns()
        try prepareMap()
        try prepareTripDays()
    }

    /// The columns `geotag` reads, added to a catalog made before them: each photo's clock as the camera
    /// wrote it (DateTimeOriginal, SubSecTimeOriginal, OffsetTimeOriginal in seconds), its camera, and
    /// where its location came from ('exif' or 'track'), and whether a fence hides it. Photos imported
    /// before have no clock.
    private func addCaptureColumns() throws {
        let names = try photoColumns()
        let wanted = [
            ("clock", "TEXT"), ("subsecond", "TEXT"), ("clock_offset", "INTEGER"), ("make", "TEXT"),
            ("model", "TEXT"), ("location_source", "TEXT"),
            // Whether a geofence holds it (`refreshHidden`): then others see it without a location.
            ("hidden", "INTEGER NOT NULL DEFAULT 0"),
            // Who sees it and where it was taken (`Audience`); photos imported before stay public.
            ("visibility", "TEXT NOT NULL DEFAULT 'public'"), ("location_audience", "TEXT NOT NULL DEFAULT 'public'"),
        ]
        for (name, type) in wanted where !names.contains(name) {
            try database.execute("ALTER TABLE photos ADD COLUMN \(name) \(type)")
        }
        // The record's time taken as written ("YYYY-MM-DD HH:MM:SS", its own local time), beside the
        // record: trips and `visited` read it for every photo, and the records' JSON cost them most of a
        // second at 100,000 photos. Filled from the records of a catalog made before it.
        if !names.contains("date_taken") {
            try database.execute(
                """
                ALTER TABLE photos ADD COLUMN date_taken TEXT;
                UPDATE photos SET date_taken = json_extract(CAST(record AS TEXT), '$.dateTaken');
                """)
        }
        // When each track line began (seconds since 1970, UTC): a trip's route is the lines of its days.
        if try !trackLineColumns().contains("started") {
            try database.execute("ALTER TABLE track_lines ADD COLUMN started REAL")
        }
    }

    private func photoColumns() throws -> Set<String> {
        let columns = try database.prepare("SELECT name FROM pragma_table_info('photos')")
        var names: Set<String> = []
        while try columns.step() { names.insert(columns.text(0)) }
        return names
    }

    /// Whether a row is shown without its location, in SQL: a fence holds it (unless `showsFenced`), or its
    /// location's audience is not among `audiences`.
    var hiddenColumn: String {
        let fenced = showsFenced || !knowsFences ? "0" : "hidden"
        guard knowsAudiences, audiences != Set(Audience.allCases) else { return fenced }
        return "(\(fenced) OR location_audience NOT IN (\(Audience.sqlList(audiences))))"
    }

    /// Whether a row is listed at all, in SQL: its visibility is among `audiences`.
    var visibleRows: String {
        guard knowsAudiences, audiences != Set(Audience.allCases) else { return "1" }
        return "visibility IN (\(Audience.sqlList(audiences)))"
    }

    /// Opens the catalog of a cache folder for reading, or nil when there is none.
    static func existing(in cacheDirectory: URL) throws -> LocalCatalog? {
        let file = file(in: cacheDirectory)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try LocalCatalog(file: file, readOnly: true)
    }

    public func files() throws -> [[UInt8]: LocalFileState] {
        try files(database.prepare(Self.filesQuery))
    }

    public func files(below roots: [[UInt8]]) throws -> [[UInt8]: LocalFileState] {
        var files: [[UInt8]: LocalFileState] = [:]
        // The root itself, and the range of paths that begin with it and a slash (on the primary key).
        let rows = try database.prepare(Self.filesQuery + " WHERE f.path = ? OR (f.path >= ? AND f.path < ?)")
        for root in roots {
            let range = LocalFileState.pathRange(below: root)
            try rows.bind([.blob(root), .blob(range.lower), .blob(range.upper)])
            files.merge(try self.files(rows)) { first, _ in first }
        }
        return files
    }

    private static let filesQuery = """
        SELECT f.path, f.size, f.modified, f.inode, f.photo, f.problem, f.other, p.latitude IS NOT NULL,
            p.location_source
        FROM files f LEFT JOIN photos p ON p.id = f.photo
        """

    private func files(_ rows: SQLiteStatement) throws -> [[UInt8]: LocalFileState] {
        var files: [[UInt8]: LocalFileState] = [:]
        while try rows.step() {
            var state = LocalFileState(
                size: rows.integer(1) ?? 0, modified: rows.integer(2) ?? 0,
                inode: rows.integer(3) ?? 0)
            state.photo = rows.optionalText(4)
            state.problem = rows.optionalText(5)
            state.isOther = rows.integer(6) == 1
            state.located = rows.integer(7) == 1
            state.locationSource = rows.optionalText(8).flatMap(LocationSource.init(rawValue:))
            files[rows.withBytes(0) { Array($0) }] = state
        }
        return files
    }

    public func apply(_ changes: LocalCatalogChanges) throws -> Int {
        try database.transaction {
            // The photos this change may leave without a file: those its files held before, and its own.
            var held = Set(changes.photos.map(\.photo.id))
            let holding = try database.prepare("SELECT photo FROM files WHERE path = ? AND photo IS NOT NULL")
            for path in changes.files.map(\.path) + changes.gone {
                try holding.bind([.blob(path)])
                while try holding.step() { held.insert(holding.text(0)) }
            }
            for (photo, place, taken) in changes.photos {
                try keep(place)
                let capture = changes.captures[photo.id]
                let clock = capture?.clock
                let privacy = try storedPrivacy(of: photo.id) ?? changes.privacy
                try database.prepare(
                    """
                    INSERT OR REPLACE INTO photos (id, place, taken, latitude, longitude, record, clock, subsecond,
                        clock_offset, make, model, location_source, visibility, location_audience, date_taken)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(photo.id), .text(place.id), taken.map { .real($0) } ?? .null,
                        photo.coordinate.map { .real($0.latitude) } ?? .null,
                        photo.coordinate.map { .real($0.longitude) } ?? .null,
                        .blob(Array(try JSONOutput.data(photo))),
                        clock.map { .text($0.local) } ?? .null, clock?.subSecond.map { .text($0) } ?? .null,
                        clock?.utcOffsetSeconds.map { .integer(Int64($0)) } ?? .null,
                        capture?.make.map { .text($0) } ?? .null, capture?.model.map { .text($0) } ?? .null,
                        photo.locationSource.map { .text($0.rawValue) } ?? .null,
                        .text(privacy.visibility.rawValue), .text(privacy.location.rawValue),
                        photo.dateTaken.map { .text($0) } ?? .null,
                    ]
                ).step()
            }
            for (path, state) in changes.files {
                try database.prepare(
                    "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        .blob(path), .integer(state.size), .integer(state.modified), .integer(state.inode),
                        state.photo.map { .text($0) } ?? .null, state.problem.map { .text($0) } ?? .null,
                        .integer(state.isOther ? 1 : 0),
                    ]
                ).step()
            }
            for path in changes.gone { try database.prepare("DELETE FROM files WHERE path = ?", [.blob(path)]).step() }
            // Photos no file holds any more: their files gone, or changed into other photos.
            let orphan = try database.prepare(
                "DELETE FROM photos WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM files WHERE photo = ?1) RETURNING id")
            var removed = 0
            for id in held.sorted() {
                try orphan.bind([.text(id)])
                while try orphan.step() { removed += 1 }
            }
            try refreshHidden(of: changes.photos.map(\.photo.id))
            if changes.changesPhotos {
                try database.prepare(
                    "INSERT INTO meta VALUES ('version', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1"
                ).step()
            }
            return removed
        }
    }

    /// Adds a place photos are in, unless it is there.
    func keep(_ place: LocalPlace) throws {
        try database.prepare(
            "INSERT OR IGNORE INTO places VALUES (?, ?, ?, ?, ?)",
            [
                .text(place.id), .text(place.shortName), .text(place.fullName),
                place.coordinate.map { .real($0.latitude) } ?? .null,
                place.coordinate.map { .real($0.longitude) } ?? .null,
            ]
        ).step()
    }

    public func version() throws -> Int {
        let row = try database.prepare("SELECT value FROM meta WHERE key = 'version'")
        return try row.step() ? Int(row.integer(0) ?? 0) : 0
    }

    public func located(ids: [String]) throws -> [String: Bool] {
        let rows = try database.prepare("SELECT id, latitude IS NOT NULL FROM photos WHERE id = ?")
        var photos: [String: Bool] = [:]
        for id in ids {
            try rows.bind([.text(id)])
            while try rows.step() { photos[rows.text(0)] = rows.integer(1) == 1 }
        }
        return photos
    }

    /// A country's or area's centre is its photos' mean; places with as many photos go by name. Fenced
    /// photos count among the photos without a location, and no centre lies in a fence.
    public func places() throws -> [Place] {
        let hidden = hiddenColumn, visible = visibleRows
        let rows = try database.prepare(
            """
            SELECT p.id, p.short_name, p.full_name, p.latitude, p.longitude, AVG(f.latitude), AVG(f.longitude),
                   COUNT(*) AS photos
            FROM places p JOIN (
                SELECT CASE WHEN \(hidden) THEN ?1 ELSE place END AS place,
                       CASE WHEN \(hidden) THEN NULL ELSE latitude END AS latitude,
                       CASE WHEN \(hidden) THEN NULL ELSE longitude END AS longitude
                FROM photos WHERE \(visible)) f ON f.place = p.id
            GROUP BY p.id ORDER BY p.id = ?1, photos DESC, p.full_name, p.id
            """, [.text(LocalPlace.unlocatedID)])
        let fences = showsFenced || !knowsFences ? [] : try fences()
        var places: [Place] = []
        while try rows.step() {
            places.append(
                Place(
                    id: rows.text(0), fullName: rows.text(2), shortName: rows.text(1),
                    coordinate: fences.shownCentre(
                        own: Coordinate(latitude: rows.real(3), longitude: rows.real(4)),
                        mean: Coordinate(latitude: rows.real(5), longitude: rows.real(6))),
                    type: "locality", typeID: 7, photoCount: Int(rows.integer(7) ?? 0)))
        }
        return places
    }

    /// Photos without a date come last.
    public func photos(inPlace id: String, limit: Int) throws -> (photos: [Photo], total: Int) {
        let hidden = hiddenColumn
        // The photos without a location include the fenced ones; no other place does.
        let chosen =
            (id == LocalPlace.unlocatedID ? "(place = ? OR \(hidden))" : "place = ? AND NOT \(hidden)")
            + " AND \(visibleRows)"
        let count = try database.prepare("SELECT COUNT(*) FROM photos WHERE \(chosen)", [.text(id)])
        let total = try count.step() ? Int(count.integer(0) ?? 0) : 0
        return (
            try decoded(
                database.prepare(
                    """
                    SELECT record, \(hiddenColumn) FROM photos WHERE \(chosen) ORDER BY taken IS NULL, taken DESC, id LIMIT ?
                    """,
                    [.text(id), .integer(Int64(max(limit, 0)))])), total
        )
    }

    public func allPhotos() throws -> [Photo] {
        try decoded(database.prepare("SELECT record, \(hiddenColumn) FROM photos WHERE \(visibleRows) ORDER BY id"))
    }

    public func photo(id: String) throws -> Photo? {
        try decoded(
            database.prepare(
                "SELECT record, \(hiddenColumn) FROM photos WHERE id = ? AND \(visibleRows)", [.text(id)])
        ).first
    }

    public func listed(ids: [String]) throws -> [String: Bool] {
        guard !ids.isEmpty else { return [:] }
        let rows = try database.prepare(
            "SELECT id, \(hiddenColumn) FROM photos WHERE id IN (SELECT value FROM json_each(?)) AND \(visibleRows)",
            [.text(try JSONOutput.text(ids))])
        var listed: [String: Bool] = [:]
        while try rows.step() { listed[rows.text(0)] = rows.integer(1) == 1 }
        return listed
    }

    public func files(ofPhoto id: String) throws -> [(path: [UInt8], state: LocalFileState)] {
        let rows = try database.prepare("SELECT path, size, modified, inode FROM files WHERE photo = ?", [.text(id)])
        var files: [(path: [UInt8], state: LocalFileState)] = []
        while try rows.step() {
            files.append(
                (
                    rows.withBytes(0) { Array($0) },
                    LocalFileState(
                        size: rows.integer(1) ?? 0, modified: rows.integer(2) ?? 0,
                        inode: rows.integer(3) ?? 0)
                ))
        }
        return files
    }

    /// Rows of (record, hidden), as others may see them unless `showsFenced`.
    private func decoded(_ rows: SQLiteStatement) throws -> [Photo] {
        var photos: [Photo] = []
        let decoder = JSONDecoder()
        while try rows.step() {
            let photo = try decoder.decode(Photo.self, from: rows.withBytes(0) { Data($0) })
            photos.append(rows.integer(1) == 1 ? Geofence.withoutLocation(photo) : photo)
        }
        return photos
    }
}
