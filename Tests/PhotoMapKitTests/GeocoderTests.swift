// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// Where the geocoder looks names up in a test: the files parsed, or the index made from them.
enum GazetteerKind: String, CaseIterable, Sendable {
    case parsed, indexed
}

@Suite("Geocoding with the embedded gazetteer, parsed and indexed")
struct GeocoderTests {
    static let sources: GazetteerSources = {
        let fixtures = LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures")
        let catalog = fixtures.appendingPathComponent("catalog")
        return GazetteerSources(
            folder: fixtures.appendingPathComponent("gazetteer"), catalog: catalog,
            topPlaces: { try FixtureSource(catalog: catalog).topPlaces().items })
    }()

    static let parsed: Gazetteer = {
        do {
            return try sources.load()
        } catch {
            fatalError("cannot load the gazetteer: \(error)")
        }
    }()

    /// The index, made in a folder of its own from the parsed gazetteer.
    static let indexed: GazetteerIndex = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photomap-gazetteer-\(getpid())")
        let file = GazetteerIndex.file(in: folder)
        do {
            try GazetteerIndex.build(parsed, signature: sources.signature(), at: file)
        } catch {
            fatalError("cannot make the gazetteer's index: \(error)")
        }
        return GazetteerIndex(file: file)
    }()

    static func geocoder(_ kind: GazetteerKind) -> Geocoder {
        Geocoder(gazetteer: kind == .parsed ? parsed as any GazetteerLookup : indexed)
    }

    func best(_ query: String, near: Coordinate? = nil, in kind: GazetteerKind) throws -> GazetteerEntry {
        try #require(try Self.geocoder(kind).find(query, near: near).first).entry
    }

    @Test("Paris is Paris, France by importance, and Paris, Texas near Texas", arguments: GazetteerKind.allCases)
    func paris(kind: GazetteerKind) throws {
        #expect(try best("Paris", in: kind).country == "FR")
        let texas = try best("Paris", near: Coordinate(latitude: 33.66, longitude: -95.55), in: kind)
        #expect(texas.country == "US" && texas.admin1 == "TX")
        #expect(try best("Paris, TX", in: kind).admin1 == "TX")
    }

    @Test(
        "a qualifier after a comma narrows by country or US state", arguments: GazetteerKind.allCases,
        [
            ("Portland, Maine", "US", "ME"), ("Portland, Oregon", "US", "OR"), ("Córdoba, Argentina", "AR", ""),
            ("Cordoba, Spain", "ES", ""),
        ])
    func qualifiers(kind: GazetteerKind, expected: (query: String, country: String, admin1: String)) throws {
        let (query, country, admin1) = expected
        let entry = try best(query, in: kind)
        #expect(entry.country == country)
        if !admin1.isEmpty { #expect(entry.admin1 == admin1) }
    }

    @Test(
        "accents, case and alternate names do not matter", arguments: GazetteerKind.allCases,
        [("zurich", "Zürich"), ("CÓRDOBA", "Córdoba"), ("Munich", "Munich")])
    func folding(kind: GazetteerKind, names: (query: String, name: String)) throws {
        let (query, name) = names
        #expect(SearchText.normalized(try best(query, in: kind).name) == SearchText.normalized(name))
    }

    @Test(
        "a landmark is found by name or street, titled by its name, subtitled by its coordinate",
        arguments: GazetteerKind.allCases)
    func landmark(kind: GazetteerKind) throws {
        let hall = try best("Radio City Music Hall", in: kind)
        #expect(hall.kind == .landmark)
        #expect(hall.annotation.title == "Radio City Music Hall")
        #expect(hall.annotation.subtitle == "Lat:40.759976 Lon:-73.979977")
        #expect(try best("1260 6th Ave", in: kind).name == "Radio City Music Hall")
        #expect(try best("Radio City Music Hall, New York", in: kind).name == "Radio City Music Hall")
        #expect(try best("Portland, Maine, USA", in: kind).admin1 == "ME")
    }

    @Test("a city is titled by its locality; a bare coordinate is \"Your location\"", arguments: GazetteerKind.allCases)
    func titles(kind: GazetteerKind) throws {
        #expect(try best("Tokyo", in: kind).annotation.title == "Tokyo")
        let here = try best("40.7,-73.9", in: kind)
        #expect(here.annotation.title == "Your location")
        #expect(here.annotation.subtitle == "Lat:40.700000 Lon:-73.900000")
    }

    @Test(
        "another geocoder's candidates (flickr.places.find's) are ranked with the gazetteer's under one rule",
        arguments: GazetteerKind.allCases)
    func candidates(kind: GazetteerKind) throws {
        func place(_ id: String, _ name: String, _ type: Int, _ latitude: Double, _ longitude: Double) throws
            -> GazetteerEntry
        {
            try #require(
                GazetteerEntry(
                    place: Place(
                        id: id, fullName: name,
                        coordinate: Coordinate(latitude: latitude, longitude: longitude),
                        typeID: type)))
        }
        // In Flickr's order: the state first, the town last.
        let flickr = [
            try place("state", "Idaho, United States", 8, 44.389, -114.659),
            try place("falls", "Idaho Falls, Idaho, United States", 7, 43.491, -112.034),
            try place("town", "Idaho, Tennessee, United States", 7, 35.0921, -87.2888),
        ]
        let near = Coordinate(latitude: 35.09, longitude: -87.29)
        #expect(try Self.geocoder(kind).find("Idaho", near: near, candidates: flickr).first?.entry.id == "town")
        #expect(
            try Self.geocoder(kind).find("Idaho", candidates: flickr).first?.entry.id == "state",
            "a region outranks a town of its name")
        // A candidate whose name does not hold the query (an abbreviation Flickr resolved) is kept.
        let nyc = try place("ny", "New York, NY, United States", 7, 40.71, -74.0)
        #expect(try Self.geocoder(kind).find("NYC", candidates: [nyc]).contains { $0.entry.id == "ny" })
        // Landmarks the service does not know still come from the gazetteer.
        #expect(try Self.geocoder(kind).find("Radio City Music Hall", candidates: []).first?.entry.kind == .landmark)
    }

    @Test(
        "villages are found by name; a name a village shares with a city stays the city's",
        arguments: GazetteerKind.allCases)
    func villages(kind: GazetteerKind) throws {
        for (query, id) in [("Giethoorn", "2755517"), ("Zermatt", "2657928"), ("Positano", "3170051")] {
            let village = try best(query, in: kind)
            #expect(village.id == id && village.kind == .village, "\(query): \(village)")
        }
        // Toronto, Ohio and Paris, Tennessee are villages: the bare names, even asked near them, are the cities.
        #expect(try best("Toronto", in: kind).id == "6167865")
        #expect(try best("Toronto", near: Coordinate(latitude: 40.46, longitude: -80.60), in: kind).id == "6167865")
        #expect(try best("Paris", in: kind).country == "FR")
        #expect(try best("Paris", near: Coordinate(latitude: 36.30, longitude: -88.33), in: kind).kind == .city)
        // Named with their state, where no city of the name is, they are found.
        #expect(try best("Toronto, Ohio", in: kind).id == "5174095")
        #expect(try best("Vail, Colorado", in: kind).id == "5442727")
        // A page of answers lists every city, landmark or place that matches before any village; a query that
        // begins a city's name, and is a village's whole name, is still the city.
        let parises = try Self.geocoder(kind).find("Paris", limit: 100)
        let firstVillage = try #require(parises.firstIndex { $0.entry.kind == .village })
        #expect(firstVillage > 0 && parises[firstVillage...].allSatisfy { $0.entry.kind == .village })
        #expect(try best("Mont", in: kind).id == "6077243")  // Montréal, not Mont (Pyrénées-Atlantiques)
    }

    @Test("nothing found is an empty answer", arguments: GazetteerKind.allCases, ["xyzzyq", "", "  ,  "])
    func nothing(kind: GazetteerKind, query: String) throws {
        #expect(try Self.geocoder(kind).find(query).isEmpty)
    }

    @Test(
        "great-circle distances",
        arguments: [
            (48.8566, 2.3522, 51.5074, -0.1278, 343.5), (0.0, 0.0001, 0.0, 180.0, 20_015.1),
        ])
    func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double, kilometres: Double) throws {
        let a = try #require(Coordinate(latitude: lat1, longitude: lon1)),
            b = try #require(Coordinate(latitude: lat2, longitude: lon2))
        #expect(abs(a.distance(to: b) - kilometres) < 1)
    }
}

/// The local index's behaviour, on both engines (SQLite in the cache folder, PostGIS); what only one
/// engine's plan does (SQLite's cells and circle rows) is tested on that engine alone.
@Suite("The local index")
struct LocalIndexTests {
    let folder: TemporaryFolder
    let index: LocalIndex

    init() throws {
        folder = try TemporaryFolder()
        index = try LocalIndex(file: folder.url.appendingPathComponent("index.sqlite"))
    }

    /// A fresh index on `engine`.
    func index(_ engine: StateEngine) throws -> any SearchIndex {
        try engine.place(in: folder.url).stores().index.open()
    }

    func record(_ id: String, _ text: String, _ latitude: Double, _ longitude: Double) -> IndexRecord {
        IndexRecord(
            annotation: Annotation(
                kind: .photo, id: id, title: text, subtitle: "",
                coordinate: Coordinate(latitude: latitude, longitude: longitude)),
            text: text)
    }

    @Test(
        "finds by words and word beginnings, accents folded, within the radius only, nearer first",
        arguments: StateEngine.allCases)
    func search(engine: StateEngine) throws {
        let index = try index(engine)
        try index.add([
            record("1", "Golden Gate Bridge at dusk", 37.8199, -122.4783),
            record("2", "Bay Bridge", 37.7983, -122.3778),
            record("3", "Café de Flore", 48.854, 2.3325), record("4", "bridge far away", 40.0, -100.0),
            record("5", "Bridges of the bay", 37.80, -122.40),
        ])
        let sf = try #require(Coordinate(latitude: 37.7749, longitude: -122.4194))
        let hits = try index.search("bridge", near: sf, radiusKilometres: 10, limit: 10)
        #expect(Set(hits.map(\.annotation.id)) == ["1", "2", "5"])
        #expect(try index.search("cafe", near: nil, radiusKilometres: 1, limit: 10).map(\.annotation.id) == ["3"])
        #expect(
            try index.search("golden gate", near: sf, radiusKilometres: 10, limit: 10).map(\.annotation.id) == ["1"])
        #expect(try index.search("bridge", near: nil, radiusKilometres: 1, limit: 10).count == 4)
        #expect(hits.allSatisfy { $0.distanceKilometres <= 10 })
    }

    @Test(
        "a narrow circle (grid-cell tokens) and a wide one (R*Tree) find what lies inside them",
        arguments: StateEngine.allCases)
    func narrowAndWide(engine: StateEngine) throws {
        let index = try index(engine)
        try index.add([
            record("near", "lighthouse", 43.0, 5.0), record("edge", "lighthouse", 43.0, 5.12),
            record("far", "lighthouse", 47.0, 8.0),
        ])
        let centre = try #require(Coordinate(latitude: 43.0, longitude: 5.0))
        #expect(SearchBox(centre: centre, radiusKilometres: 12).cellTokens != nil)
        #expect(
            Set(try index.search("lighthouse", near: centre, radiusKilometres: 5, limit: 10).map(\.annotation.id)) == [
                "near"
            ])
        #expect(
            Set(try index.search("lighthouse", near: centre, radiusKilometres: 12, limit: 10).map(\.annotation.id)) == [
                "near", "edge",
            ])
        // 600 km spans thousands of cells: the R*Tree path.
        #expect(SearchBox(centre: centre, radiusKilometres: 600).cellTokens == nil)
        #expect(
            Set(try index.search("lighthouse", near: centre, radiusKilometres: 600, limit: 10).map(\.annotation.id))
                == ["near", "edge", "far"])
        #expect(
            Set(try index.search("lighthouse", near: centre, radiusKilometres: 300, limit: 10).map(\.annotation.id))
                == ["near", "edge"])
    }

    @Test(
        "a circle across the antimeridian finds both sides; near a pole, every longitude",
        arguments: StateEngine.allCases)
    func wrapAround(engine: StateEngine) throws {
        let index = try index(engine)
        try index.add([
            record("east", "atoll", -16.5, 179.98), record("west", "atoll", -16.5, -179.98),
            record("pole", "camp", 89.99, 120),
        ])
        let dateLine = try #require(Coordinate(latitude: -16.5, longitude: 179.99))
        #expect(
            Set(try index.search("atoll", near: dateLine, radiusKilometres: 5, limit: 10).map(\.annotation.id)) == [
                "east", "west",
            ])
        #expect(
            Set(try index.search("atoll", near: dateLine, radiusKilometres: 900, limit: 10).map(\.annotation.id)) == [
                "east", "west",
            ])
        let pole = try #require(Coordinate(latitude: 89.99, longitude: -60))
        #expect(try index.search("camp", near: pole, radiusKilometres: 5, limit: 10).map(\.annotation.id) == ["pole"])
    }

    @Test(
        "a small circle keeps every match inside it, however many outside are more relevant",
        arguments: StateEngine.allCases)
    func smallCircle(engine: StateEngine) throws {
        let index = try index(engine)
        var records = (0..<400).map { record("out\($0)", "fountain fountain fountain", 45.02, 7.02) }
        records += (0..<30).map { record("in\($0)", "fountain and other words here", 45.0, 7.0) }
        try index.add(records)
        let centre = try #require(Coordinate(latitude: 45.0, longitude: 7.0))
        #expect(try index.search("fountain", near: centre, radiusKilometres: 0.5, limit: 100).count == 30)
    }

    @Test(
        "a common word in a small circle: the circle's rows drive, with FTS5's bm25 and the same hits, however the index changes"
    )
    func circleDrives() throws {
        // "bridge" is in 600 records, 40 of them (and 3 without it) inside 2 km of the centre.
        var records = (0..<560).map {
            record(
                "out\($0)", "bridge bridges over water \($0 % 7 == 0 ? "bridge" : "")", 46.0 + Double($0 % 40) * 0.1,
                8.0)
        }
        records += (0..<40).map {
            record(
                "in\($0)", "Bridge \(String(repeating: "river ", count: $0 % 5))\($0 % 3 == 0 ? "bridges" : "")",
                45.0 + Double($0) * 0.0002, 7.0 + Double($0 % 4) * 0.001)
        }
        records += (0..<3).map { record("other\($0)", "a tower", 45.0, 7.0) }
        try index.add(records)
        let centre = try #require(Coordinate(latitude: 45.0, longitude: 7.0))
        let box = SearchBox(centre: centre, radiusKilometres: 2)
        let circle = try #require(
            try index.searchCircle(
                ["bridge"], box: box, centre: centre,
                radiusKilometres: 2, limit: 100))
        #expect(circle.count == 40)
        #expect(
            try index.search("bridge", near: centre, radiusKilometres: 2, limit: 100).map(\.annotation.id)
                == circle.map(\.annotation.id))
        // FTS5's own bm25 for each hit, as the word-driven search ranks.
        for hit in circle {
            let rank = try index.database.prepare(
                """
                SELECT bm25(records_text, 1.0, 0.0) FROM records_text JOIN records r ON r.rowid = records_text.rowid
                WHERE records_text MATCH 'body : ("bridge"*)' AND r.id = ?
                """, [.text(hit.annotation.id)])
            #expect(try rank.step())
            #expect(abs(-(rank.real(0) ?? 0) - hit.relevance) < 1e-9, "\(hit.annotation.id)")
        }
        #expect(
            try index.searchCircle(["tower"], box: box, centre: centre, radiusKilometres: 2, limit: 100) == nil,
            "a word rarer than the circle drives")
        // A record moved out, one changed, one removed from the words: the counts and cells follow.
        try index.add([
            record("in0", "bridge", 47.0, 9.0), record("in1", "a tower now", 45.0, 7.0),
            record("out1", "bridge", 45.0, 7.0),
        ])
        let again = try index.search("bridge", near: centre, radiusKilometres: 2, limit: 100)
        #expect(Set(again.map(\.annotation.id)) == Set((2..<40).map { "in\($0)" } + ["out1"]))
    }

    @Test(
        "the words' lists together decide which side drives: two words each rarer than the circle's rows but common together"
    )
    func wordsTogetherDecide() throws {
        // 20 records inside 2 km hold both words; 10 far away hold each. Each list (30 rows) is under twice
        // the circle's 20 rows, the two together (60) over it.
        var records = (0..<20).map { record("in\($0)", "alpha beta", 45.0 + Double($0) * 0.0002, 7.0) }
        records +=
            (0..<10).map { record("a\($0)", "alpha", 55.0, 7.0) }
            + (0..<10).map { record("b\($0)", "beta", 55.0, 7.0) }
        try index.add(records)
        let centre = try #require(Coordinate(latitude: 45.0, longitude: 7.0))
        let box = SearchBox(centre: centre, radiusKilometres: 2)
        #expect(LocalIndex.circleRowCost == 2)
        #expect(try index.searchCircle(["alpha"], box: box, centre: centre, radiusKilometres: 2, limit: 100) == nil)
        let circle = try #require(
            try index.searchCircle(
                ["alpha", "beta"], box: box, centre: centre,
                radiusKilometres: 2, limit: 100))
        #expect(Set(circle.map(\.annotation.id)) == Set((0..<20).map { "in\($0)" }))
        // Counted once, the words are known the next time: the same side drives, with the same hits.
        #expect(
            try index.search("alpha beta", near: centre, radiusKilometres: 2, limit: 5).map(\.annotation.id)
                == Array(circle.prefix(5).map(\.annotation.id)))
    }

    @Test(
        "grid-cell tokens are never matched as words; apostrophes split as the tokenizer splits them",
        arguments: StateEngine.allCases)
    func cellsAndApostrophes(engine: StateEngine) throws {
        let index = try index(engine)
        try index.add([record("1", "O'Hare terminal", 41.97, -87.9)])
        #expect(try index.search("zc", near: nil, radiusKilometres: 1, limit: 5).isEmpty)
        #expect(
            try index.search(
                LocalIndex.cellToken(latitude: 41.97, longitude: -87.9), near: nil,
                radiusKilometres: 1, limit: 5
            ).isEmpty)
        #expect(try index.search("O'Hare", near: nil, radiusKilometres: 1, limit: 5).count == 1)
    }

    @Test(
        "query text is never FTS or tsquery syntax", arguments: StateEngine.allCases,
        ["bridge OR cafe", "\"", "NEAR(a b)", "bridge*) OR (x", "-bridge", "a:b", "a' | 'b", "!x & y:*", "\\'"])
    func noSyntax(engine: StateEngine, query: String) throws {
        let index = try index(engine)
        try index.add([record("1", "bridge", 1, 1)])
        #expect(throws: Never.self) { try index.search(query, near: nil, radiusKilometres: 1, limit: 5) }
    }

    @Test(
        "a radius below zero or not a number finds nothing, and does not trap (scripts/fuzz local-search)",
        arguments: StateEngine.allCases, [-1, -Double.infinity, Double.nan, -Double.nan])
    func impossibleRadius(engine: StateEngine, radius: Double) throws {
        let index = try index(engine)
        try index.add([record("1", "gate", 52.5, 13.4)])
        let centre = try #require(Coordinate(latitude: 52.5, longitude: 13.4))
        #expect(try index.search("gate", near: centre, radiusKilometres: radius, limit: 5).isEmpty)
        #expect(try index.search("gate", near: nil, radiusKilometres: radius, limit: 5).count == 1)
    }

    @Test(
        "adding a record again replaces it; a catalog's records go with their origin; emptied for a rebuild",
        arguments: StateEngine.allCases)
    func replaceAndClear(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        let index = try place.stores().index.open()
        try index.add([record("1", "old words", 1, 1)])
        try index.add([record("1", "new words", 2, 2), record("1", "newest words", 3, 3)])
        #expect(try index.count() == 1)
        #expect(try index.search("old", near: nil, radiusKilometres: 1, limit: 5).isEmpty)
        #expect(
            try index.search("new", near: nil, radiusKilometres: 1, limit: 5).first?.annotation.coordinate?.latitude
                == 3,
            "the last of a batch wins")
        try index.add([record("c1", "catalog words", 4, 4)], origin: "catalog")
        try index.remove(origin: "catalog")
        #expect(try index.count() == 1 && index.search("catalog", near: nil, radiusKilometres: 1, limit: 5).isEmpty)
        let emptied = try place.stores().index.openEmptied()
        #expect(try emptied.count() == 0 && emptied.search("new", near: nil, radiusKilometres: 1, limit: 5).isEmpty)
    }

    @Test("a second handle (another process's) reads what the first wrote", arguments: StateEngine.allCases)
    func secondConnection(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        try place.stores().index.open().add([record("1", "shared", 1, 1)])
        #expect(try place.stores().index.open().search("shared", near: nil, radiusKilometres: 1, limit: 5).count == 1)
    }

    /// The same ranks in the same order, and the same photos at each rank: only hits tied with others
    /// (the same relevance and distance) may stand in another order, or swap at the limit's edge.
    func expectSameHits(
        _ a: [SearchHit], _ b: [SearchHit], radius: Double, _ comment: Comment,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        func rank(_ hit: SearchHit) -> Double { LocalIndex.rank(hit.relevance, hit.distanceKilometres, radius) }
        #expect(a.count == b.count, comment, sourceLocation: sourceLocation)
        for (x, y) in zip(a, b) {
            #expect(abs(rank(x) - rank(y)) < 1e-6, comment, sourceLocation: sourceLocation)
        }
        let last = a.last.map(rank) ?? 0
        func aboveTheEdge(_ hits: [SearchHit]) -> [String: Int] {
            Dictionary(
                hits.filter { rank($0) > last + 1e-6 }.map { ($0.annotation.id, Int((rank($0) * 1e5).rounded())) },
                uniquingKeysWith: { first, _ in first })
        }
        #expect(aboveTheEdge(a) == aboveTheEdge(b), comment, sourceLocation: sourceLocation)
    }

    @Test("both engines give the same hits, in the same order, for the same records, circles and limits")
    func enginesAgree() throws {
        let sqlite = try index(.files), postgres = try index(.postgres)
        // 3,000 records over half a degree around Lyon, ten words each from forty, some accented.
        let vocabulary = [
            "pont", "rivière", "église", "marché", "tour", "parc", "fontaine", "place", "rue", "quai",
            "musée", "jardin", "colline", "gare", "théâtre", "opéra", "vieux", "nuit", "soleil", "pluie",
            "basilique", "traboule", "fresque", "bouchon", "saône", "rhône", "île", "port", "statue", "arc",
            "O'Brien", "café", "bridge", "light", "tram", "bus", "velo", "ciel", "nuage", "brume",
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let records = (0..<3_000).map { number in
            let words = (0..<(3 + next(8))).map { _ in
                vocabulary[next(vocabulary.count) * next(vocabulary.count) / vocabulary.count]
            }
            return record(
                "p\(number)", words.joined(separator: " "), 45.5 + Double(next(50_000)) / 100_000,
                4.6 + Double(next(50_000)) / 100_000)
        }
        for index in [sqlite, postgres] {
            try index.add(Array(records.prefix(2_000)))
            try index.add(Array(records.dropFirst(1_500)))  // overlapping: replaced records count once
        }
        #expect(try sqlite.count() == postgres.count())
        let centre = try #require(Coordinate(latitude: 45.75, longitude: 4.85))
        for (query, radius, limit) in [
            ("pont", 5.0, 20), ("pont", 2.0, 500), ("rivi", 5, 20), ("eglise marche", 10, 20),
            ("cafe", 30, 50), ("o'brien", 3, 10), ("place rue", 8, 15), ("zzz", 5, 10),
            ("tour", 1.5, 100), ("parc fontaine place", 20, 30),
        ] {
            let hits = try sqlite.search(query, near: centre, radiusKilometres: radius, limit: limit)
            #expect(hits.isEmpty == (query == "zzz"), "\(query)")
            expectSameHits(
                hits, try postgres.search(query, near: centre, radiusKilometres: radius, limit: limit),
                radius: radius, "\(query) within \(radius) km")
        }
        expectSameHits(
            try sqlite.search("fontaine", near: nil, radiusKilometres: 1, limit: 25),
            try postgres.search("fontaine", near: nil, radiusKilometres: 1, limit: 25), radius: 1, "anywhere")
        let only = ["p1", "p2", "p3", "p10", "p2999"]
        #expect(
            Set(
                try sqlite.search("pont", near: nil, radiusKilometres: 1, limit: 10, photoIDs: only).map(
                    \.annotation.id))
                == Set(
                    try postgres.search("pont", near: nil, radiusKilometres: 1, limit: 10, photoIDs: only).map(
                        \.annotation.id)))
    }
}

@Suite("The gazetteer's index, made ahead of time or in the cache folder")
struct GazetteerIndexTests {
    /// Sources copied into a folder of the test's own, so that one can change.
    func sources(in folder: TemporaryFolder) throws -> GazetteerSources {
        let fixtures = LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures")
        let gazetteer = folder.url.appendingPathComponent("gazetteer"),
            catalog = folder.url.appendingPathComponent("catalog")
        try FileManager.default.createDirectory(at: gazetteer, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        for name in ["cities.tsv", "regions.tsv"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("gazetteer/\(name)"),
                to: gazetteer.appendingPathComponent(name))
        }
        for name in ["landmarks.json", "top-places.json"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("catalog/\(name)"),
                to: catalog.appendingPathComponent(name))
        }
        return GazetteerSources(
            folder: gazetteer, catalog: catalog, topPlaces: { try FixtureSource(catalog: catalog).topPlaces().items })
    }

    @Test(
        "made on first use, opened as it is afterwards, made anew when a file changes; a read-only cache parses instead"
    )
    func lifecycle() throws {
        let folder = try TemporaryFolder()
        let sources = try sources(in: folder)
        let cache = folder.url.appendingPathComponent("cache")
        #expect(try GazetteerIndex.lookup(for: sources, in: cache) is GazetteerIndex)
        let file = GazetteerIndex.file(in: cache)
        let made = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(try GazetteerIndex.lookup(for: sources, in: cache) is GazetteerIndex)
        #expect(
            try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == made,
            "opened, not made again")

        // A city the files gain is found once the index is made again.
        let cities = sources.folder.appendingPathComponent("cities.tsv")
        let handle = try FileHandle(forWritingTo: cities)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("99999999\tQuuxville\t10.5\t20.5\tFR\t11\t20000\tQuux\n".utf8))
        try handle.close()
        let reopened = try GazetteerIndex.lookup(for: sources, in: cache)
        #expect(try Geocoder(gazetteer: reopened).find("Quuxville").first?.entry.id == "99999999")
        #expect(try Geocoder(gazetteer: reopened).find("quux").first?.entry.name == "Quuxville")

        // A cache folder that cannot be written: the files are parsed, and find still answers.
        let blocked = folder.url.appendingPathComponent("file-not-folder")
        try Data().write(to: blocked)
        let parsed = try GazetteerIndex.lookup(for: sources, in: blocked)
        #expect(parsed is Gazetteer)
        #expect(try Geocoder(gazetteer: parsed).find("Quuxville").first?.entry.id == "99999999")
    }

    @Test("a damaged index file is made anew")
    func damaged() throws {
        let folder = try TemporaryFolder()
        let sources = try sources(in: folder)
        let cache = folder.url.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data("not a database".utf8).write(to: GazetteerIndex.file(in: cache))
        let lookup = try GazetteerIndex.lookup(for: sources, in: cache)
        #expect(lookup is GazetteerIndex)
        #expect(try Geocoder(gazetteer: lookup).find("Reykjavik").first?.entry.country == "IS")
    }

    @Test(
        "one made ahead of time beside the sources is read, also after the folders are copied; stale, it is not"
    )
    func prebuilt() throws {
        let folder = try TemporaryFolder()
        let original = try sources(in: folder)
        #expect(try GazetteerIndex.prebuild(for: original))
        #expect(try !GazetteerIndex.prebuild(for: original), "current: kept")
        // Copied as the package copies them (new paths and times): still current, and no cache file made.
        let copy = folder.url.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in ["gazetteer", "catalog"] {
            try FileManager.default.copyItem(
                at: folder.url.appendingPathComponent(name), to: copy.appendingPathComponent(name))
        }
        let sources = GazetteerSources(
            folder: copy.appendingPathComponent("gazetteer"), catalog: copy.appendingPathComponent("catalog"),
            topPlaces: original.topPlaces)
        let cache = folder.url.appendingPathComponent("cache")
        let lookup = try GazetteerIndex.lookup(for: sources, in: cache)
        #expect((lookup as? GazetteerIndex)?.file == sources.prebuiltIndex)
        #expect(!FileManager.default.fileExists(atPath: GazetteerIndex.file(in: cache).path))
        #expect(try Geocoder(gazetteer: lookup).find("Reykjavik").first?.entry.country == "IS")
        // A source changed: the one beside is stale, and the cache's is made and answers.
        let handle = try FileHandle(forWritingTo: sources.folder.appendingPathComponent("cities.tsv"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("99999999\tQuuxville\t10.5\t20.5\tFR\t11\t20000\tQuux\n".utf8))
        try handle.close()
        let remade = try GazetteerIndex.lookup(for: sources, in: cache)
        #expect((remade as? GazetteerIndex)?.file == GazetteerIndex.file(in: cache))
        #expect(try Geocoder(gazetteer: remade).find("Quuxville").first?.entry.id == "99999999")
    }

    @Test(
        "the index answers as the parsed files do, for every kind of query",
        arguments: [
            "Paris", "paris, tx", "New York", "new yo", "San", "st louis", "Saint-Étienne", "München", "東京",
            "Sao Paulo, Brazil",
            "Golden Gate", "1260 6th", "Springfield, Illinois", "a", "x", "Rio", "Los Angeles, USA", "zzzz",
        ])
    func sameAnswers(query: String) throws {
        let parsed = try Geocoder(gazetteer: GeocoderTests.parsed).find(query, limit: 10)
        let indexed = try Geocoder(gazetteer: GeocoderTests.indexed).find(query, limit: 10)
        #expect(indexed.map(\.entry) == parsed.map(\.entry))
        #expect(indexed.map(\.score) == parsed.map(\.score))
    }
}

@Suite("Name matching by bytes")
struct NameMatchingTests {
    @Test(
        "for every name of the gazetteer, the byte comparison agrees with the character comparison",
        arguments: [
            "s", "sa", "san", "san j", "new york", "paris", "st", "saint p", "sao", "lodz", "malmo", "koln", "a b",
            "rio de", "zur", "1260 6th",
        ])
    func agrees(query: String) {
        let wanted = SearchText.normalized(query), words = wanted.split(separator: " ")
        for names in GeocoderTests.parsed.names {
            var reference = 0.0
            for (position, name) in names.enumerated() {
                let level = Geocoder.characterLevel(wanted, length: wanted.count, words: words, name: name)
                if level == 1 {
                    reference = position == 0 ? 1 : 0.9
                    break
                }
                reference = max(reference, level)
            }
            #expect(Geocoder.match(wanted, words: words, against: names) == reference, "\(names.first ?? "")")
        }
    }
}
