// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// The files the offline gazetteer is made from: GeoNames' cities, villages and regions (`Fixtures/gazetteer`),
/// and the embedded catalog's landmarks and top places.
public struct GazetteerSources: Sendable {
    /// The folder holding cities.tsv, villages.tsv and regions.tsv.
    public let folder: URL
    /// The embedded catalog's folder, holding landmarks.json and top-places.json.
    public let catalog: URL
    /// Reads the catalog's top places (top-places.json, in Flickr's answer): asked only when the index
    /// is made, by whoever knows how to read the catalog.
    let topPlaces: @Sendable () throws -> [Place]

    /// The sources in these folders, the top places read by `topPlaces`.
    public init(folder: URL, catalog: URL, topPlaces: @escaping @Sendable () throws -> [Place]) {
        self.folder = folder
        self.catalog = catalog
        self.topPlaces = topPlaces
    }

    var files: [URL] {
        [
            folder.appendingPathComponent("cities.tsv"), folder.appendingPathComponent("villages.tsv"),
            folder.appendingPathComponent("regions.tsv"),
            catalog.appendingPathComponent("landmarks.json"), catalog.appendingPathComponent("top-places.json"),
        ]
    }

    /// Every file parsed: what the index is made from.
    public func load() throws -> Gazetteer {
        try Gazetteer.load(
            gazetteer: folder, landmarks: catalog.appendingPathComponent("landmarks.json"),
            places: try topPlaces())
    }

    /// The index made ahead of time beside the sources (`photomap-fixture-images` writes it, the package
    /// ships it), used while it was made from these very files.
    public var prebuiltIndex: URL { folder.appendingPathComponent("names.sqlite") }

    /// What the index was made from (`SourceSignature`): an index made from other files, or from these
    /// before they changed, has another signature, and one made ahead of time still matches after its
    /// folder is copied (the package) or checked out anew.
    func signature() -> String {
        SHA256.hex(digest: SourceSignature.of(files))
    }
}

/// The gazetteer as an SQLite file in the cache folder (`gazetteer.sqlite`), made once from its
/// sources and made anew when one of them changes. A query reads only the entries that have a
/// name word starting with the query's rarest word (a prefix range of an index of every name word),
/// so `find` no longer parses 34,000 cities and their 170,000 names on every run.
public struct GazetteerIndex: GazetteerLookup {
    /// The index file.
    public let file: URL

    /// Bumped when the tables or what goes in them change: an index made by an older photomap is made
    /// anew. 2: a place with no division is in its country alone (not "Singapore, Singapore").
    static let schemaVersion = "2"
    /// Joins a list of names in one column (the unit separator, 0x1F); no name holds it.
    private static let separator = "\u{1F}"

    /// The index file in a cache folder.
    public static func file(in cacheDirectory: URL) -> URL {
        cacheDirectory.appendingPathComponent("gazetteer.sqlite")
    }

    /// The index of `sources`: the one made ahead of time beside them, else the one in `cacheDirectory`,
    /// made first when it is missing, damaged or made from other files. When it cannot be written (a
    /// read-only cache), the parsed gazetteer answers instead.
    public static func lookup(for sources: GazetteerSources, in cacheDirectory: URL) throws -> any GazetteerLookup {
        let signature = sources.signature()
        for file in [sources.prebuiltIndex, file(in: cacheDirectory)] {
            let index = GazetteerIndex(file: file)
            if (try? index.signature()) == signature { return index }
        }
        let index = GazetteerIndex(file: file(in: cacheDirectory))
        let gazetteer = try sources.load()
        do {
            try build(gazetteer, signature: signature, at: index.file)
            return index
        } catch {
            return gazetteer
        }
    }

    /// Makes the index of `sources` beside them (`prebuiltIndex`), unless the one there is current.
    /// - Returns: whether it was made.
    @discardableResult
    public static func prebuild(for sources: GazetteerSources) throws -> Bool {
        let signature = sources.signature()
        guard (try? GazetteerIndex(file: sources.prebuiltIndex).signature()) != signature else { return false }
        try build(try sources.load(), signature: signature, at: sources.prebuiltIndex)
        return true
    }

    /// The signature of the files the index was made from.
    func signature() throws -> String? {
        let database = try SQLiteDatabase(path: file.path, readOnly: true)
        let statement = try database.prepare(
            "SELECT value FROM meta WHERE key = 'sources' AND (SELECT value FROM meta WHERE key = 'schema') = ?",
            [.text(Self.schemaVersion)])
        return try statement.step() ? statement.text(0) : nil
    }

    /// Writes the index of `gazetteer` at `file`: made in a temporary file beside it and renamed into
    /// place, so a reader (or a second photomap making it at the same moment) never sees half of one.
    static func build(_ gazetteer: Gazetteer, signature: String, at file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = file.deletingLastPathComponent().appendingPathComponent(
            ".tmp-\(file.lastPathComponent)-\(getpid())")
        unlink(temporary.path)
        defer { unlink(temporary.path) }
        do {
            let database = try SQLiteDatabase(path: temporary.path)
            // A file nobody reads until it is renamed needs no journal.
            try database.execute(
                """
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
                CREATE TABLE entries (rowid INTEGER PRIMARY KEY, kind TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL,
                    alternates TEXT NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL, country TEXT NOT NULL,
                    admin1 TEXT NOT NULL, population INTEGER NOT NULL, street TEXT NOT NULL, locality TEXT NOT NULL,
                    context TEXT NOT NULL, place_type INTEGER, names TEXT NOT NULL);
                CREATE TABLE words (word BLOB NOT NULL, entry INTEGER NOT NULL, PRIMARY KEY (word, entry)) WITHOUT ROWID;
                CREATE TABLE regions (rowid INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL, admin1 TEXT NOT NULL);
                CREATE INDEX regions_by_name ON regions (name);
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                """)
            try database.transaction {
                let addEntry = try database.prepare(
                    "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                let addWord = try database.prepare("INSERT OR IGNORE INTO words VALUES (?, ?)")
                for (offset, (entry, names)) in zip(gazetteer.entries, gazetteer.names).enumerated() {
                    let rowid = Int64(offset + 1)
                    try addEntry.bind([
                        .integer(rowid), .text(entry.kind.rawValue), .text(entry.id), .text(entry.name),
                        .text(entry.alternates.joined(separator: separator)),
                        .real(entry.coordinate.latitude), .real(entry.coordinate.longitude),
                        .text(entry.country), .text(entry.admin1), .integer(Int64(entry.population)),
                        .text(entry.street), .text(entry.locality),
                        .text(entry.context), entry.placeTypeID.map { .integer(Int64($0)) } ?? .null,
                        .text(names.joined(separator: separator)),
                    ])
                    try addEntry.step()
                    for word in Set(names.flatMap { $0.split(separator: " ") }) {
                        try addWord.bind([.blob(Array(Self.key(word).utf8)), .integer(rowid)])
                        try addWord.step()
                    }
                }
                let addRegion = try database.prepare("INSERT INTO regions (name, country, admin1) VALUES (?, ?, ?)")
                for (name, regions) in gazetteer.regions {
                    for region in regions {
                        try addRegion.bind([.text(name), .text(region.country), .text(region.admin1)])
                        try addRegion.step()
                    }
                }
                try database.prepare(
                    "INSERT INTO meta VALUES ('schema', ?), ('sources', ?)",
                    [.text(schemaVersion), .text(signature)]
                ).step()
            }
        }
        guard rename(temporary.path, file.path) == 0 else {
            throw SQLiteError(message: String(cString: strerror(errno)), code: 0, path: file.path)
        }
    }

    /// A name word as the index keys it: composed (NFC), so that a word typed decomposed finds it.
    private static func key(_ word: Substring) -> String {
        word.utf8.allSatisfy { $0 < 0x80 } ? String(word) : String(word).precomposedStringWithCanonicalMapping
    }

    public func entries(withWordsStarting words: [Substring]) throws -> [(entry: GazetteerEntry, names: [String])] {
        guard !words.isEmpty else { return [] }
        let database = try SQLiteDatabase(path: file.path, readOnly: true)
        // Words starting with a prefix lie between it and it followed by 0xFF, a byte UTF-8 never holds.
        let ranges = words.map { word -> [SQLiteValue] in
            let low = Array(Self.key(word).utf8)
            return [.blob(low), .blob(low + [0xFF])]
        }
        // The rarest word narrows most; counting stops where no word could be worse.
        let count = try database.prepare(
            "SELECT count(*) FROM (SELECT 1 FROM words WHERE word >= ? AND word < ? LIMIT 50000)")
        var rarest = ranges[0], fewest = Int64.max
        for range in ranges {
            try count.bind(range)
            try count.step()
            if let found = count.integer(0), found < fewest { (rarest, fewest) = (range, found) }
        }
        let statement = try database.prepare(
            """
            SELECT kind, id, name, alternates, latitude, longitude, country, admin1, population, street, locality, context,
                place_type, names FROM entries WHERE rowid IN (SELECT entry FROM words WHERE word >= ? AND word < ?) ORDER BY rowid
            """, rarest)
        var found: [(entry: GazetteerEntry, names: [String])] = []
        while try statement.step() {
            if let entry = Self.entry(statement) { found.append(entry) }
        }
        return found
    }

    public func regions(named qualifier: String) throws -> [(country: String, admin1: String)] {
        let database = try SQLiteDatabase(path: file.path, readOnly: true)
        let statement = try database.prepare(
            "SELECT country, admin1 FROM regions WHERE name = ? ORDER BY rowid",
            [.text(SearchText.normalized(qualifier))])
        var regions: [(country: String, admin1: String)] = []
        while try statement.step() {
            regions.append((statement.text(0), statement.text(1)))
        }
        return regions
    }

    public func landmarks() throws -> [GazetteerEntry] {
        let database = try SQLiteDatabase(path: file.path, readOnly: true)
        let statement = try database.prepare(
            """
            SELECT kind, id, name, alternates, latitude, longitude, country, admin1, population, street, locality, context,
                place_type, names FROM entries WHERE kind = 'landmark' ORDER BY rowid
            """)
        var landmarks: [GazetteerEntry] = []
        while try statement.step() {
            if let landmark = Self.entry(statement)?.entry { landmarks.append(landmark) }
        }
        return landmarks
    }

    /// The entry on the statement's row, columns in the order the queries above select them (every
    /// stored entry has a coordinate: nil only for a damaged row).
    private static func entry(_ row: SQLiteStatement) -> (entry: GazetteerEntry, names: [String])? {
        guard let coordinate = Coordinate(latitude: row.real(4), longitude: row.real(5)) else { return nil }
        // Split as bytes: splitting 6,000 rows' names as characters took longer than the query.
        let split = { (text: String) -> [String] in
            text.isEmpty
                ? [] : text.utf8.split(separator: 0x1F, omittingEmptySubsequences: false).map { String(Substring($0)) }
        }
        var entry = GazetteerEntry(
            kind: GazetteerEntry.Kind(rawValue: row.text(0)) ?? .city, id: row.text(1),
            name: row.text(2), alternates: split(row.text(3)), coordinate: coordinate,
            country: row.text(6), admin1: row.text(7), population: Int(row.integer(8) ?? 0),
            street: row.text(9), locality: row.text(10), context: row.text(11))
        entry.placeTypeID = row.integer(12).map { Int($0) }
        return (entry, split(row.text(13)))
    }
}
