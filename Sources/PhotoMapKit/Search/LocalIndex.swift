// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// Everything fetched so far plus the embedded catalog, searchable offline: SQLite with FTS5 for the
/// text (accents folded) and an R*Tree for coordinates, in WAL mode so a crash loses nothing committed
/// and searches read while a listing writes. One instance is one connection: not Sendable.
///
/// A common word ("bridge") matches a large share of a million photos; joining each match to the
/// R*Tree made such a search take hundreds of milliseconds. So each record's text also carries the
/// token of its 0.05° grid cell, and a search around a point asks FTS5 for the words AND any of the
/// cells the circle touches: FTS5 intersects the two lists in C, and only the few records left are
/// read and measured. Wide searches (more than `maximumCells` cells) filter by the R*Tree instead.
/// A word that matches more rows than the circle holds does not drive at all: the circle's rows, kept
/// together by cell in `records_cells`, are read and matched instead (CircleSearch.swift).
public final class LocalIndex: SearchIndex {
    /// The grid cell's side in degrees (about 5.5 km of latitude).
    static let cellDegrees = 0.05
    /// Above this many cells, a search filters by the R*Tree rather than by cell tokens.
    static let maximumCells = 400
    /// Bumped when the tables change: an older index is emptied and refilled.
    static let schemaVersion = "7"

    let database: SQLiteDatabase

    /// The index's file name in the cache folder.
    public static let fileName = "index.sqlite"

    /// The index file in a cache folder.
    public static func file(in cacheDirectory: URL) -> URL {
        cacheDirectory.appendingPathComponent(fileName)
    }

    /// Opens (creating if needed) the index at `file`.
    public init(file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        database = try SQLiteDatabase(path: file.path)
        // Mapped, a search reads the pages it touches from the page cache without a copy per page.
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA mmap_size = 1073741824;")
        try createTables()
        if try marker("schema") != Self.schemaVersion {
            // An index from an older photomap: its tables may differ, so they are made anew.
            try database.execute(
                """
                DROP TABLE IF EXISTS records; DROP TABLE IF EXISTS records_text; DROP TABLE IF EXISTS records_where;
                DROP TABLE IF EXISTS records_cells;
                DELETE FROM meta;
                """)
            try createTables()
            try setMarker("schema", Self.schemaVersion)
        }
    }

    private func createTables() throws {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS records (
                rowid INTEGER PRIMARY KEY, kind TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL, subtitle TEXT NOT NULL,
                latitude REAL, longitude REAL, thumbnail TEXT, image TEXT, owner TEXT, taken TEXT, count INTEGER,
                page TEXT, license_id TEXT, license_name TEXT, license_url TEXT,
                origin TEXT NOT NULL DEFAULT 'fetched', photo BLOB, UNIQUE (kind, id));
            CREATE VIRTUAL TABLE IF NOT EXISTS records_text USING fts5(body, cell, tokenize = 'unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE IF NOT EXISTS records_where USING rtree(id, min_lat, max_lat, min_lon, max_lon);
            CREATE TABLE IF NOT EXISTS records_cells (cell INTEGER NOT NULL, record INTEGER NOT NULL, latitude REAL NOT NULL,
                longitude REAL NOT NULL, body TEXT NOT NULL, PRIMARY KEY (cell, record)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            """)
    }

    /// The token of the grid cell holding a coordinate: letters and digits only, one FTS5 token.
    static func cellToken(latitude: Double, longitude: Double) -> String {
        "zc\(Int(((latitude + 90) / cellDegrees).rounded(.down)))x\(Int(((longitude + 180) / cellDegrees).rounded(.down)))"
    }

    /// The side in degrees of `records_cells`' finer grid (about 1.1 km of latitude): a circle's
    /// cells cover little more than its box.
    static let circleCellDegrees = 0.01

    /// A row (from the south pole) or column (from the antimeridian) of that grid, from degrees past its start.
    static func circleCellIndex(_ degrees: Double) -> Int64 {
        Int64((degrees / circleCellDegrees).rounded(.down))
    }

    /// The cell of `records_cells` holding a coordinate, as one number: a row's cells are consecutive.
    static func circleCell(row: Int64, column: Int64) -> Int64 {
        row * (Int64((360 / circleCellDegrees).rounded()) + 1) + column
    }

    /// The cell of `records_cells` holding `coordinate`.
    static func circleCell(of coordinate: Coordinate) -> Int64 {
        circleCell(row: circleCellIndex(coordinate.latitude + 90), column: circleCellIndex(coordinate.longitude + 180))
    }

    /// Adds or replaces records (by kind and id), all in one transaction.
    public func add(_ records: [IndexRecord], origin: String) throws {
        guard !records.isEmpty else { return }
        try database.transaction {
            try forgetWordCounts()
            let upsert = try database.prepare(
                """
                INSERT INTO records (kind, id, title, subtitle, latitude, longitude, thumbnail, image, owner, taken, count,
                    page, license_id, license_name, license_url, origin, photo)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (kind, id) DO UPDATE SET title = excluded.title, subtitle = excluded.subtitle,
                    latitude = excluded.latitude, longitude = excluded.longitude, thumbnail = excluded.thumbnail,
                    image = excluded.image, owner = excluded.owner, taken = excluded.taken, count = excluded.count,
                    page = excluded.page, license_id = excluded.license_id, license_name = excluded.license_name,
                    license_url = excluded.license_url, origin = excluded.origin, photo = excluded.photo
                RETURNING rowid
                """)
            let clearText = try database.prepare("DELETE FROM records_text WHERE rowid = ?")
            let addText = try database.prepare("INSERT INTO records_text (rowid, body, cell) VALUES (?, ?, ?)")
            let clearWhere = try database.prepare("DELETE FROM records_where WHERE id = ?")
            let addWhere = try database.prepare(
                "INSERT INTO records_where (id, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)")
            // The circle search's copy of the text and coordinate, kept in the record's cell.
            let previous = try database.prepare(
                "SELECT rowid, latitude, longitude FROM records WHERE kind = ? AND id = ?")
            let clearCell = try database.prepare("DELETE FROM records_cells WHERE cell = ? AND record = ?")
            let addCell = try database.prepare(
                "INSERT INTO records_cells (cell, record, latitude, longitude, body) VALUES (?, ?, ?, ?, ?)")
            for record in records {
                let annotation = record.annotation
                try previous.bind([.text(annotation.kind.rawValue), .text(annotation.id)])
                if try previous.step(), let rowid = previous.integer(0), let latitude = previous.real(1),
                    let longitude = previous.real(2),
                    let coordinate = Coordinate(latitude: latitude, longitude: longitude)
                {
                    try clearCell.bind([.integer(Self.circleCell(of: coordinate)), .integer(rowid)])
                    try clearCell.step()
                }
                func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
                try upsert.bind([
                    .text(annotation.kind.rawValue), .text(annotation.id), .text(annotation.title),
                    .text(annotation.subtitle),
                    annotation.coordinate.map { .real($0.latitude) } ?? .null,
                    annotation.coordinate.map { .real($0.longitude) } ?? .null,
                    text(annotation.thumbnailURL), text(annotation.imageURL), text(annotation.owner),
                    text(annotation.dateTaken),
                    annotation.photoCount.map { .integer(Int64($0)) } ?? .null, text(annotation.pageURL),
                    text(annotation.license?.id), text(annotation.license?.name),
                    text(annotation.license?.url), .text(origin),
                    record.encodedPhoto.map { .blob(Array($0)) } ?? .null,
                ])
                try upsert.step()
                guard let rowid = upsert.integer(0) else { continue }
                try upsert.step()  // RETURNING yields one row; finish the statement
                try clearText.bind([.integer(rowid)])
                try clearText.step()
                let cell =
                    annotation.coordinate.map { Self.cellToken(latitude: $0.latitude, longitude: $0.longitude) }
                    ?? ""
                try addText.bind([.integer(rowid), .text(record.text), .text(cell)])
                try addText.step()
                try clearWhere.bind([.integer(rowid)])
                try clearWhere.step()
                if let coordinate = annotation.coordinate {
                    try addWhere.bind([
                        .integer(rowid), .real(coordinate.latitude), .real(coordinate.latitude),
                        .real(coordinate.longitude), .real(coordinate.longitude),
                    ])
                    try addWhere.step()
                    try addCell.bind([
                        .integer(Self.circleCell(of: coordinate)), .integer(rowid), .real(coordinate.latitude),
                        .real(coordinate.longitude), .text(record.text),
                    ])
                    try addCell.step()
                }
            }
        }
    }

    /// The photo of that id, as it was indexed; nil when none was.
    public func photo(id: String) throws -> Photo? {
        let statement = try database.prepare(
            "SELECT photo FROM records WHERE kind = 'photo' AND id = ? AND photo IS NOT NULL",
            [.text(id)])
        guard try statement.step() else { return nil }
        return statement.withBytes(0) { try? JSONDecoder().decode(Photo.self, from: Data($0)) }
    }

    /// How many records it holds.
    public func count() throws -> Int {
        let statement = try database.prepare("SELECT count(*) FROM records")
        try statement.step()
        return Int(statement.integer(0) ?? 0)
    }

    /// A stored marker (e.g. which catalog was indexed).
    public func marker(_ key: String) throws -> String? {
        let statement = try database.prepare("SELECT value FROM meta WHERE key = ?", [.text(key)])
        return try statement.step() ? statement.text(0) : nil
    }

    /// Stores a marker.
    public func setMarker(_ key: String, _ value: String) throws {
        try database.prepare(
            "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
            [.text(key), .text(value)]
        ).step()
    }

    /// Removes the records of one origin (the previous embedded catalog's, before the new one's go in).
    public func remove(origin: String) throws {
        try database.transaction {
            try forgetWordCounts()
            for table in ["records_text WHERE rowid", "records_where WHERE id", "records_cells WHERE record"] {
                try database.prepare(
                    "DELETE FROM \(table) IN (SELECT rowid FROM records WHERE origin = ?)",
                    [.text(origin)]
                ).step()
            }
            try database.prepare("DELETE FROM records WHERE origin = ?", [.text(origin)]).step()
        }
    }

    /// Removes the photos of those ids of one origin, in one transaction: each by its keys (its rowid, and
    /// its cell in `records_cells`), never a scan.
    public func remove(photos ids: [String], origin: String) throws {
        guard !ids.isEmpty else { return }
        try database.transaction {
            try forgetWordCounts()
            let gone = try database.prepare(
                """
                SELECT rowid, latitude, longitude FROM records
                WHERE kind = 'photo' AND origin = ? AND id IN (SELECT value FROM json_each(?))
                """, [.text(origin), .text(try JSONOutput.text(ids))])
            var rows: [(rowid: Int64, coordinate: Coordinate?)] = []
            while try gone.step() {
                guard let rowid = gone.integer(0) else { continue }
                rows.append(
                    (
                        rowid,
                        gone.real(1).flatMap { latitude in
                            gone.real(2).flatMap { Coordinate(latitude: latitude, longitude: $0) }
                        }
                    ))
            }
            let deletions = try [
                "DELETE FROM records_text WHERE rowid = ?", "DELETE FROM records_where WHERE id = ?",
                "DELETE FROM records WHERE rowid = ?",
            ].map { try database.prepare($0) }
            let clearCell = try database.prepare("DELETE FROM records_cells WHERE cell = ? AND record = ?")
            for row in rows {
                for deletion in deletions {
                    try deletion.bind([.integer(row.rowid)])
                    try deletion.step()
                }
                if let coordinate = row.coordinate {
                    try clearCell.bind([.integer(Self.circleCell(of: coordinate)), .integer(row.rowid)])
                    try clearCell.step()
                }
            }
        }
    }

    /// Deletes an index file and its WAL companions, for `index rebuild` to start from nothing even
    /// when the file is damaged.
    public static func delete(_ file: URL) {
        for suffix in ["", "-wal", "-shm"] { unlink(file.path + suffix) }
    }
}
