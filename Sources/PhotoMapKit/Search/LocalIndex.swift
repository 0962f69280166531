import Foundation

/// A record the local index holds: the annotation to show, and the words it is found by.
public struct IndexRecord: Sendable {
    public var annotation: Annotation
    /// Title, description, tags, names: what a query matches.
    public var text: String
    /// A photo's whole record, kept so that any server sharing the index can show the photo by its id.
    public var photo: Photo?

    /// A record for an annotation.
    public init(annotation: Annotation, text: String, photo: Photo? = nil) {
        self.annotation = annotation
        self.text = text
        self.photo = photo
    }

    /// The photo's record as the index keeps it (JSON); nil for places and landmarks.
    var encodedPhoto: Data? { photo.flatMap { try? JSONEncoder().encode($0) } }

    /// A photo, shown by its listing's annotation: found by its title, description and tags.
    public static func photo(_ entry: AnnotatedPhoto) -> IndexRecord {
        let photo = entry.record
        let words = [photo.title, PlainText.fromHTML(photo.descriptionHTML), photo.tags.joined(separator: " ")]
        return IndexRecord(annotation: entry.annotation, text: words.joined(separator: " "), photo: photo)
    }

    /// A place, shown by its listing's annotation: found by its full name.
    public static func place(_ entry: AnnotatedPlace) -> IndexRecord {
        IndexRecord(annotation: entry.annotation, text: entry.record.fullName)
    }

    /// A landmark: found by its name, street and city.
    public static func landmark(_ entry: GazetteerEntry) -> IndexRecord {
        var annotation = entry.annotation
        annotation.subtitle = entry.context
        return IndexRecord(
            annotation: annotation,
            text: [entry.name, entry.street, entry.context].joined(separator: " "))
    }
}

/// One match of a local search.
public struct SearchHit: Sendable {
    public var annotation: Annotation
    /// Text relevance (BM25, higher is better).
    public var relevance: Double
    /// From the search's centre.
    public var distanceKilometres: Double

    /// A hit.
    public init(annotation: Annotation, relevance: Double, distanceKilometres: Double) {
        self.annotation = annotation
        self.relevance = relevance
        self.distanceKilometres = distanceKilometres
    }
}

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
            func cellNumber(_ coordinate: Coordinate) -> Int64 {
                Self.circleCell(
                    row: Self.circleCellIndex(coordinate.latitude + 90),
                    column: Self.circleCellIndex(coordinate.longitude + 180))
            }
            for record in records {
                let annotation = record.annotation
                try previous.bind([.text(annotation.kind.rawValue), .text(annotation.id)])
                if try previous.step(), let rowid = previous.integer(0), let latitude = previous.real(1),
                    let longitude = previous.real(2),
                    let coordinate = Coordinate(latitude: latitude, longitude: longitude)
                {
                    try clearCell.bind([.integer(cellNumber(coordinate)), .integer(rowid)])
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
                        .integer(cellNumber(coordinate)), .integer(rowid), .real(coordinate.latitude),
                        .real(coordinate.longitude), .text(record.text),
                    ])
                    try addCell.step()
                }
            }
        }
    }

    /// Records whose text matches every word of `query` (each as a word or a word's start), within
    /// `radiusKilometres` of `centre` (anywhere without one), ranked by relevance and distance; at most
    /// `limit`. With `photoIDs`, only those photos (a Flickr search's results, ranked as local ones are).
    public func search(
        _ query: String, near centre: Coordinate?, radiusKilometres: Double, limit: Int,
        photoIDs: [String]?
    ) throws -> [SearchHit] {
        guard let words = Self.matchExpression(query) else { return [] }
        // Nothing lies within a negative radius, or one that is not a number; and the search box of one
        // would be an inverted range (found by scripts/fuzz local-search).
        guard centre == nil || radiusKilometres >= 0 else { return [] }
        // Cell tokens sit in a column of their own, weighted 0: they narrow, they never match a word.
        let columns = Self.hitColumns(relevance: "bm25(records_text, 1.0, 0.0)")
        let match = "body : (\(words))"
        let statement: SQLiteStatement
        if let photoIDs {
            let list = String(decoding: try JSONEncoder().encode(photoIDs), as: UTF8.self)
            statement = try database.prepare(
                """
                SELECT \(columns) FROM records_text JOIN records r ON r.rowid = records_text.rowid
                WHERE records_text MATCH ? AND r.kind = 'photo' AND r.id IN (SELECT value FROM json_each(?))
                """, [.text(match), .text(list)])
        } else if let centre {
            let box = SearchBox(centre: centre, radiusKilometres: radiusKilometres)
            // A common word in a small circle: the circle's rows drive, and FTS5 never reads the word's list.
            if let hits = try searchCircle(
                Self.queryWords(query), box: box, centre: centre,
                radiusKilometres: radiusKilometres, limit: limit)
            {
                return hits
            }
            // Records inside the box, tested in SQL before the relevance cut, so a small circle keeps all it holds.
            let inBox =
                "r.latitude BETWEEN ? AND ? AND ("
                + box.longitudes.map { _ in "r.longitude BETWEEN ? AND ?" }.joined(separator: " OR ") + ")"
            let boxValues: [SQLiteValue] =
                [.real(box.latitudes.lowerBound), .real(box.latitudes.upperBound)]
                + box.longitudes.flatMap { [SQLiteValue.real($0.lowerBound), .real($0.upperBound)] }
            if let cells = box.cellTokens {
                // The words and any of the circle's cells, intersected by FTS5 in C.
                statement = try database.prepare(
                    """
                    SELECT \(columns) FROM records_text JOIN records r ON r.rowid = records_text.rowid
                    WHERE records_text MATCH ? AND \(inBox) ORDER BY bm25(records_text, 1.0, 0.0) LIMIT ?
                    """,
                    [.text("\(match) AND cell : (\(cells.joined(separator: " OR ")))")] + boxValues
                        + [.integer(Int64(limit * 3 + 50))])
            } else {
                // A wide circle: the R*Tree narrows to its box (two boxes across the antimeridian).
                let rtree = box.longitudes.map { _ in "(w.min_lon >= ? AND w.max_lon <= ?)" }.joined(separator: " OR ")
                statement = try database.prepare(
                    """
                    SELECT \(columns) FROM records_where w
                    JOIN records_text ON records_text.rowid = w.id
                    JOIN records r ON r.rowid = w.id
                    WHERE w.min_lat >= ? AND w.max_lat <= ? AND (\(rtree)) AND records_text MATCH ?
                    """, boxValues + [.text(match)])
            }
        } else {
            statement = try database.prepare(
                """
                SELECT \(columns) FROM records_text JOIN records r ON r.rowid = records_text.rowid
                WHERE records_text MATCH ? ORDER BY bm25(records_text, 1.0, 0.0) LIMIT ?
                """, [.text(match), .integer(Int64(limit))])
        }
        var hits: [SearchHit] = []
        while try statement.step() {
            guard let annotation = Self.annotation(from: statement),
                let coordinate = annotation.coordinate
            else { continue }
            let distance = centre?.distance(to: coordinate) ?? 0
            guard distance <= radiusKilometres || centre == nil else { continue }
            // SQLite's bm25 is lower for better matches.
            hits.append(
                SearchHit(
                    annotation: annotation, relevance: -(statement.real(11) ?? 0),
                    distanceKilometres: distance))
        }
        return Array(
            hits.sorted {
                Self.rank($0.relevance, $0.distanceKilometres, radiusKilometres)
                    > Self.rank($1.relevance, $1.distanceKilometres, radiusKilometres)
            }.prefix(limit))
    }

    /// Relevance first, nearer breaking near-ties: distance costs up to one relevance point across the radius.
    static func rank(_ relevance: Double, _ distance: Double, _ radius: Double) -> Double {
        relevance - distance / max(radius, 0.001)
    }

    /// The columns `annotation(from:)` reads, from `records r`, with `relevance` (SQL) as column 11.
    static func hitColumns(relevance: String) -> String {
        "r.kind, r.id, r.title, r.subtitle, r.latitude, r.longitude, r.thumbnail, r.image, r.owner, r.taken, r.count, "
            + "\(relevance), r.page, r.license_id, r.license_name, r.license_url"
    }

    /// The annotation of a row of `hitColumns`; nil without a coordinate or a known kind.
    static func annotation(from statement: SQLiteStatement) -> Annotation? {
        guard let latitude = statement.real(4), let longitude = statement.real(5),
            let coordinate = Coordinate(latitude: latitude, longitude: longitude),
            let kind = Annotation.Kind(rawValue: statement.text(0))
        else { return nil }
        return Annotation(
            kind: kind, id: statement.text(1), title: statement.text(2), subtitle: statement.text(3),
            coordinate: coordinate, photoCount: statement.integer(10).map { Int($0) },
            thumbnailURL: statement.optionalText(6), imageURL: statement.optionalText(7),
            owner: statement.optionalText(8), dateTaken: statement.optionalText(9),
            pageURL: statement.optionalText(12),
            license: statement.optionalText(13).map {
                License(
                    id: $0, name: statement.text(14),
                    url: statement.optionalText(15))
            })
    }

    /// The FTS5 expression for a typed query: each word quoted (so nothing in it is FTS syntax) and
    /// matched as a prefix; every word must match. Nil when the query has no word.
    static func matchExpression(_ query: String) -> String? {
        let words = queryWords(query)
        guard !words.isEmpty else { return nil }
        return words.map(prefixPhrase).joined(separator: " ")
    }

    /// The words of a typed query as FTS5 sees them: FTS5's tokenizer splits at apostrophes ("O'Hare"
    /// is "o" "hare"), so the query must too.
    static func queryWords(_ query: String) -> [String] {
        // Most text has neither apostrophe (’ starts with the byte E2): Foundation's search is not free.
        let split =
            query.utf8.contains { $0 == UInt8(ascii: "'") || $0 == 0xE2 }
            ? query.replacingOccurrences(of: "'", with: " ").replacingOccurrences(of: "’", with: " ") : query
        return SearchText.words(split).map(String.init)
    }

    /// A word quoted for FTS5 (nothing in it is FTS syntax) and matched as a prefix.
    static func prefixPhrase(_ word: String) -> String {
        "\"\(word.replacingOccurrences(of: "\"", with: "\"\""))\"*"
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

    /// Deletes an index file and its WAL companions, for `index rebuild` to start from nothing even
    /// when the file is damaged.
    public static func delete(_ file: URL) {
        for suffix in ["", "-wal", "-shm"] { unlink(file.path + suffix) }
    }

}

/// The box around a search circle: its latitudes, its longitudes (two ranges when it crosses the
/// antimeridian, all of them when it reaches a pole), and the grid cells it touches.
struct SearchBox {
    /// Kilometres in one degree of latitude, from the mean Earth radius `distance(to:)` uses.
    static let kilometresPerDegree = 6_371 * Double.pi / 180

    let latitudes: ClosedRange<Double>
    let longitudes: [ClosedRange<Double>]

    init(centre: Coordinate, radiusKilometres: Double) {
        let latitudeSpan = radiusKilometres / Self.kilometresPerDegree
        latitudes = max(centre.latitude - latitudeSpan, -90)...min(centre.latitude + latitudeSpan, 90)
        let reachesPole = centre.latitude - latitudeSpan <= -90 || centre.latitude + latitudeSpan >= 90
        // The widest point of the circle is nearer the pole than its centre: use that latitude's scale.
        let widest = max(abs(latitudes.lowerBound), abs(latitudes.upperBound))
        let longitudeSpan = radiusKilometres / max(Self.kilometresPerDegree * cos(widest * .pi / 180), 0.001)
        if reachesPole || longitudeSpan >= 180 {
            longitudes = [-180...180]
        } else if centre.longitude - longitudeSpan < -180 {
            longitudes = [-180...(centre.longitude + longitudeSpan), (centre.longitude - longitudeSpan + 360)...180]
        } else if centre.longitude + longitudeSpan > 180 {
            longitudes = [(centre.longitude - longitudeSpan)...180, -180...(centre.longitude + longitudeSpan - 360)]
        } else {
            longitudes = [(centre.longitude - longitudeSpan)...(centre.longitude + longitudeSpan)]
        }
    }

    /// The grid cells the box touches; nil when there are more than `LocalIndex.maximumCells`.
    var cellTokens: [String]? {
        let size = LocalIndex.cellDegrees
        let rows =
            Int(
                ((latitudes.lowerBound + 90) / size).rounded(.down))...Int(
                ((min(latitudes.upperBound, 89.999_999) + 90) / size).rounded(.down))
        var tokens: [String] = []
        for range in longitudes {
            let columns =
                Int(
                    ((range.lowerBound + 180) / size).rounded(.down))...Int(
                    ((min(range.upperBound, 179.999_999) + 180) / size).rounded(.down))
            guard tokens.count + rows.count * columns.count <= LocalIndex.maximumCells else { return nil }
            tokens += rows.flatMap { row in columns.map { "zc\(row)x\($0)" } }
        }
        return tokens
    }

    /// The box's cells of `records_cells` as ranges of their numbers, one for each row of cells and
    /// range of longitudes; nil when there are more than `maximumCellRanges`.
    var circleCellRanges: [ClosedRange<Int64>]? {
        let rows =
            LocalIndex.circleCellIndex(
                latitudes.lowerBound + 90)...LocalIndex.circleCellIndex(latitudes.upperBound + 90)
        guard rows.count * longitudes.count <= Self.maximumCellRanges else { return nil }
        return longitudes.flatMap { range in
            let columns =
                LocalIndex.circleCellIndex(range.lowerBound + 180)...LocalIndex.circleCellIndex(range.upperBound + 180)
            return rows.map {
                LocalIndex.circleCell(
                    row: $0, column: columns.lowerBound)...LocalIndex.circleCell(row: $0, column: columns.upperBound)
            }
        }
    }

    /// Ranges of cells a query may name (a circle about 100 km across).
    static let maximumCellRanges = 100
}
