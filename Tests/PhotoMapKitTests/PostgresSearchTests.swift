// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// PostgreSQL's three ways to a search's rows (the nearest matches of a word in most records, the rarest
/// word in the circle's cells, the word index across a wide circle) give the exact ranking: every record
/// ranked by the index's rule (bm25 and distance), the best first.
@Suite("Search in PostgreSQL gives the exact ranking, whichever rows it reads")
struct PostgresSearchTests {
    /// 4,000 photos within about 30 km of Ljubljana: every other one says "bridge" (its weight is
    /// near 0, so distance decides), some "sunset" (once or twice), a few a rare word.
    static let longWord = "panoramicviewpointabovethevalleyofsoca"

    static func records() -> [IndexRecord] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func unit() -> Double {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) / Double(1 << 53)
        }
        return (0..<4_000).map { number in
            var words = ["photo\(number % 50)"]
            if number % 2 == 0 { words.append("bridge") }
            if number % 7 == 0 { words.append("sunset") }
            if number % 91 == 0 { words += ["sunset", "sunsets"] }
            if number % 97 == 0 { words.append("zemonska") }
            // Longer than the beginnings index_word_rows counts (PostgresIndex.countedLength).
            if number % 13 == 0 { words.append(Self.longWord) }
            words += ["lake", "street", "alley"].prefix(number % 4)
            return IndexRecord(
                annotation: Annotation(
                    kind: .photo, id: String(number), title: words.joined(separator: " "), subtitle: "",
                    coordinate: Coordinate(
                        latitude: 46.05 + (unit() - 0.5) * 0.5, longitude: 14.5 + (unit() - 0.5) * 0.7)),
                text: words.joined(separator: " "))
        }
    }

    /// Every record of `records` matching `query` in the circle, ranked one by one: the best `limit`.
    static func ranked(
        _ records: [IndexRecord], _ query: String, _ centre: Coordinate, _ radius: Double, _ limit: Int
    ) -> [(id: String, relevance: Double, distance: Double)] {
        let needles = LocalIndex.queryWords(query).map { Array($0.utf8) }
        let texts = records.map { Array(LocalIndex.queryWords($0.text).joined(separator: " ").utf8) }
        let counts = texts.map { text in text.withUnsafeBytes { LocalIndex.prefixCounts(of: needles, in: $0) } }
        // Each located record's length counts its cell token too.
        let tokensPerRow = Double(counts.map { $0.1 + 1 }.reduce(0, +)) / Double(records.count)
        let weights = needles.indices.map { word in
            LocalIndex.bm25Weight(
                rows: Double(records.count), matching: Double(counts.filter { $0.0[word] > 0 }.count))
        }
        var hits: [(id: String, relevance: Double, distance: Double)] = []
        for (record, (found, length)) in zip(records, counts) where !found.contains(0) {
            guard let coordinate = record.annotation.coordinate else { continue }
            let distance = centre.distance(to: coordinate)
            guard distance <= radius else { continue }
            let relevance = LocalIndex.bm25(
                counts: found, weights: weights, lengthRatio: Double(length + 1) / tokensPerRow)
            hits.append((record.annotation.id, relevance, distance))
        }
        return Array(
            hits.sorted {
                LocalIndex.rank($0.relevance, $0.distance, radius) > LocalIndex.rank($1.relevance, $1.distance, radius)
            }
            .prefix(limit))
    }

    @Test(
        "the best hits, in order, of ranking every record",
        arguments: [
            ("bridge", 5.0),  // in half the records: nearest first
            ("bridge", 40.0),
            ("sunset", 5.0),  // the circle's cells
            ("sun", 8.0),  // a word's beginning
            ("sunset lake", 12.0),  // two words: the rarer in the cells
            ("zemonska", 10.0),
            ("sunset", 150.0),  // too many cells: the word index within the circle
            ("photo1 bridge", 60.0),
            (Self.longWord, 150.0),  // counted: longer than the kept beginnings
            (String(Self.longWord.prefix(33)), 150.0),
            (String(Self.longWord.prefix(32)), 150.0),  // the longest kept beginning
        ])
    func exact(query: String, radius: Double) throws {
        let records = Self.records()
        let index = PostgresIndex(pool: try TestDatabase().pool())
        try index.load(records, origin: "test")
        try Self.expectRanked(index, records, query, radius)
    }

    /// The index's best 1, 10 and 100 hits for `query` are those of ranking every one of `records`.
    static func expectRanked(_ index: PostgresIndex, _ records: [IndexRecord], _ query: String, _ radius: Double)
        throws
    {
        let centre = try #require(Coordinate(latitude: 46.06, longitude: 14.51))
        for limit in [1, 10, 100] {
            let expected = Self.ranked(records, query, centre, radius, limit)
            let found = try index.search(query, near: centre, radiusKilometres: radius, limit: limit, photoIDs: nil)
            #expect(!expected.isEmpty)
            #expect(found.map(\.annotation.id) == expected.map(\.id), "\(query) \(radius) km, \(limit)")
            for (one, other) in zip(found, expected) {
                #expect(
                    abs(one.relevance - other.relevance) < 1e-9 && abs(one.distanceKilometres - other.distance) < 1e-9)
            }
        }
    }

    @Test(
        "after records are replaced and removed by id, the ranking of every record left, from kept word counts",
        arguments: [("bridge", 5.0), ("bridge", 40.0), ("sunset", 8.0), ("sun", 150.0), ("zemonska", 10.0)])
    func exactAfterRemovals(query: String, radius: Double) throws {
        let database = try TestDatabase()
        var records = Self.records()
        let index = PostgresIndex(pool: try database.pool())
        try index.load(records, origin: "test")
        // Every third record gone, some of the rest rewritten (a word more, or "bridge" taken away).
        let gone = Set(records.indices.filter { $0 % 3 == 0 }.map { records[$0].annotation.id })
        try index.remove(photos: Array(gone), origin: "test")
        try index.remove(photos: Array(gone.prefix(5)), origin: "other")
        records.removeAll { gone.contains($0.annotation.id) }
        for position in records.indices where position % 5 == 0 {
            records[position].text =
                position % 10 == 0
                ? records[position].text.replacingOccurrences(of: "bridge", with: "")
                : records[position].text + " sunset"
        }
        try index.add(records.enumerated().filter { $0.offset % 5 == 0 }.map(\.element), origin: "test")
        #expect(try index.count() == records.count)
        #expect(try TestDatabase.wordCountsDiffering(database.url) == "0")
        try Self.expectRanked(index, records, query, radius)
    }

    @Test("the word-count migration counts the word beginnings of the records there before it as loads keep them")
    func wordCountsAsMigrated() throws {
        let database = try TestDatabase()
        let pool = try database.pool()
        try PostgresIndex(pool: pool).load(Self.records(), origin: "test")
        let kept = try TestDatabase.psql(database.url, "SELECT sum(records), count(*) FROM index_word_rows")
        try TestDatabase.psql(
            database.url,
            """
            \(TestDatabase.withoutTripDays)
            DROP FUNCTION index_word_beginnings; UPDATE index_word_rows SET records = 0;
            DELETE FROM photomap_schema WHERE version >= \(DatabaseSchema.wordCountsVersion)
            """)
        #expect(try DatabaseSchema.migrate(pool).first == DatabaseSchema.wordCountsVersion)
        #expect(try TestDatabase.psql(database.url, "SELECT sum(records), count(*) FROM index_word_rows") == kept)
        #expect(try TestDatabase.wordCountsDiffering(database.url) == "0")
        // A record's words add at most countedLength beginnings each, however long (anyone's text).
        #expect(
            try TestDatabase.psql(database.url, "SELECT max(char_length(word)) FROM index_word_rows")
                == String(PostgresIndex.countedLength))
    }

    @Test("the cell words a load writes are those migration 3 computes for rows loaded before it")
    func cellWordsAsMigrated() throws {
        let database = try TestDatabase()
        let index = PostgresIndex(pool: try database.pool())
        let texts = [
            "Café de Flore", "O'Brien’s pub", String(repeating: "ž", count: 300) + " long", "", "日本 橋",
            "back\\slash 'quoted'",
        ]
        let places = [(46.05, 14.5), (-33.9, -70.66), (89.999, 179.99), (-90, -180), (0, 0), (51.5, -0.12)]
        try index.load(
            zip(texts, places).enumerated().map { number, pair in
                IndexRecord(
                    annotation: Annotation(
                        kind: .photo, id: String(number), title: pair.0, subtitle: "",
                        coordinate: Coordinate(latitude: pair.1.0, longitude: pair.1.1)),
                    text: pair.0)
            }, origin: "test")
        let differing = try TestDatabase.psql(
            database.url,
            """
            SELECT count(*) FROM index_records WHERE cell_words IS DISTINCT FROM CASE
                WHEN latitude IS NULL OR longitude IS NULL OR body = '' THEN NULL ELSE array_to_tsvector(ARRAY(
                SELECT 'zc' || floor((latitude + 90) / 0.02)::bigint || 'x' || floor((longitude + 180) / 0.02)::bigint
                    || '_' || left(word, 200) FROM unnest(string_to_array(body, ' ')) AS word)) END
            """)
        #expect(differing == "0")
        #expect(try TestDatabase.psql(database.url, "SELECT count(cell_words) FROM index_records") == "5")
    }
}
