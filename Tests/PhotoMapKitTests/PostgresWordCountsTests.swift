// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// The word beginnings' kept counts (migration 13) heal after an older photomap, still running, emptied
/// them (as it does after each of its loads), and keep no row of a beginning no record holds.
@Suite("PostgreSQL's kept word counts heal and keep no zeros")
struct PostgresWordCountsTests {
    /// What an older photomap leaves after a load: the table emptied, then one word it counted at a search.
    static func emptyAsAnOlderPhotomap(_ url: String) throws {
        try TestDatabase.psql(
            url, "DELETE FROM index_word_rows; INSERT INTO index_word_rows (word, records) VALUES ('sunset', 1)")
    }

    static func marked(_ url: String) throws -> Bool {
        try TestDatabase.psql(url, "SELECT count(*) FROM index_word_rows WHERE word = ''") == "1"
    }

    /// Loaded, some records replaced and some removed: the records as the index now holds them.
    static func changed(_ index: PostgresIndex) throws -> [IndexRecord] {
        var records = PostgresSearchTests.records()
        try index.load(records, origin: "test")
        let gone = records.indices.filter { $0 % 4 == 1 }.map { records[$0].annotation.id }
        try index.remove(photos: gone, origin: "test")
        records.removeAll { Set(gone).contains($0.annotation.id) }
        for position in records.indices where position % 6 == 0 { records[position].text += " sunset lake" }
        try index.add(records.enumerated().filter { $0.offset % 6 == 0 }.map(\.element), origin: "test")
        return records
    }

    @Test("a load or a removal after an older photomap emptied the counts counts them all again")
    func writersHeal() throws {
        let database = try TestDatabase()
        let index = PostgresIndex(pool: try database.pool())
        var records = try Self.changed(index)
        try Self.emptyAsAnOlderPhotomap(database.url)
        records[0].text += " zemonska"
        try index.add([records[0]], origin: "test")
        #expect(try Self.marked(database.url))
        #expect(try TestDatabase.wordCountsDiffering(database.url) == "0")
        try Self.emptyAsAnOlderPhotomap(database.url)
        try index.remove(photos: [records[1].annotation.id], origin: "test")
        records.remove(at: 1)
        #expect(try Self.marked(database.url))
        #expect(try TestDatabase.wordCountsDiffering(database.url) == "0")
        try PostgresSearchTests.expectRanked(index, records, "sunset lake", 12)
    }

    @Test("a search over emptied counts ranks exactly, counting its words, and has the counts made again")
    func searchesHeal() throws {
        let database = try TestDatabase()
        let index = PostgresIndex(pool: try database.pool())
        let records = try Self.changed(index)
        try Self.emptyAsAnOlderPhotomap(database.url)
        try PostgresSearchTests.expectRanked(index, records, "sunset", 8)
        try PostgresSearchTests.expectRanked(index, records, "bridge", 40)
        // The heal runs apart from the search; each search finding the counts stale starts it if none runs.
        let deadline = Date().addingTimeInterval(120)
        while try !Self.marked(database.url), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            _ = try index.search("lake", near: nil, radiusKilometres: 0, limit: 1, photoIDs: nil)
        }
        #expect(try Self.marked(database.url))
        #expect(try TestDatabase.wordCountsDiffering(database.url) == "0")
        #expect(try index.healCounts() == false)
        try PostgresSearchTests.expectRanked(index, records, "sun", 150)
    }

    @Test("a beginning no record holds any more leaves the table in the statement that counts it out")
    func noZeros() throws {
        let database = try TestDatabase()
        let index = PostgresIndex(pool: try database.pool())
        var records = try Self.changed(index)
        // "zemonska" is said by every 97th record; its beginnings from "z" on by no other word.
        let sayingIt = records.filter { $0.text.contains("zemonska") }
        try index.remove(photos: sayingIt.dropFirst().map(\.annotation.id), origin: "test")
        #expect(try TestDatabase.psql(database.url, "SELECT records FROM index_word_rows WHERE word = 'zemon'") == "1")
        var last = try #require(sayingIt.first)
        last.text = last.text.replacingOccurrences(of: "zemonska", with: "")
        try index.add([last], origin: "test")
        #expect(try TestDatabase.psql(database.url, "SELECT count(*) FROM index_word_rows WHERE word LIKE 'z%'") == "0")
        #expect(try TestDatabase.psql(database.url, "SELECT count(*) FROM index_word_rows WHERE records = 0") == "1")
        records = records.filter { !$0.text.contains("zemonska") } + [last]
        #expect(try TestDatabase.wordCountsDiffering(database.url) == "0")
        try PostgresSearchTests.expectRanked(index, records, "sunset", 150)
    }
}
