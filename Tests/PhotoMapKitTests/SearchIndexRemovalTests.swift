// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// A catalog change that drops photos (a prune, a file read again as another photo, a photo made private)
/// takes only their records out of the search index, by id: after imports, removals and re-imports the
/// index gives the hits, in the order and with the relevance, that an index rebuilt from the catalog gives.
@Suite("The search index drops photos by id, as a rebuild would leave it")
struct SearchIndexRemovalTests {
    static let ljubljana = Coordinate(latitude: 46.05, longitude: 14.5)

    /// Photos `numbers`, within about 30 km of Ljubljana: every other one says "bridge", one in 7 "sunset",
    /// one in 41 "zemonska"; an `edition` other than 0 says "tower" and "sunset" instead (a photo changed).
    static func photos(_ numbers: Range<Int>, edition: Int = 0) -> [Photo] {
        numbers.map { number in
            var words = ["photo\(number % 13)"]
            if number % 2 == 0 { words.append("bridge") }
            if number % 7 == 0 { words.append("sunset") }
            if number % 41 == 0 { words.append("zemonska") }
            if edition > 0 { words += ["tower", "sunset", "sunsets"] }
            // A fixed spread (the golden angle), so no two photos are as far from the centre.
            let angle = Double(number) * 2.399_963, reach = 0.004 * Double(number % 61 + 1)
            return Photo(
                id: "local-\(number)", title: words.joined(separator: " "), tags: edition > 0 ? ["edited"] : [],
                coordinate: Coordinate(latitude: 46.05 + reach * sin(angle), longitude: 14.5 + reach * cos(angle)))
        }
    }

    /// The changes an import of `photos` makes, each in a file of `folder`.
    static func changes(_ photos: [Photo], folder: String) -> LocalCatalogChanges {
        var changes = LocalCatalogChanges()
        changes.privacy = PhotoPrivacy(visibility: .public)
        for (index, photo) in photos.enumerated() {
            changes.photos.append((photo, LocalPlace.unlocated, nil))
            var state = LocalFileState(size: 1, modified: 1, inode: Int64(index))
            state.photo = photo.id
            changes.files.append((Array((folder + photo.id).utf8), state))
        }
        return changes
    }

    /// Common words, rare ones, a word's beginning, two words; small circles and wide. (No word matches more
    /// than the 140 records SQLite's word-driven search cuts a common word's matches to by bm25 alone:
    /// near-equal there, the cut keeps whichever come first in the table.)
    static let queries: [(String, Double)] = [
        ("bridge", 5), ("bridge", 40), ("sunset", 10), ("sun", 30), ("zemonska", 40), ("bridge sunset", 40),
        ("tower", 25), ("photo3", 40), ("edited", 40),
    ]

    /// Checks that `index` answers every query as an index rebuilt from `catalog` does.
    static func expectRebuilt(
        _ index: any SearchIndex, _ rebuilt: any SearchIndex, _ catalog: any LocalCatalogStore,
        _ step: String
    ) throws {
        try CatalogIndexer(index: rebuilt).ensureLocal(catalog)
        #expect(try index.count() == rebuilt.count(), "\(step)")
        let centre = try #require(ljubljana)
        for (query, radius) in queries {
            let found = try index.search(query, near: centre, radiusKilometres: radius, limit: 30)
            let expected = try rebuilt.search(query, near: centre, radiusKilometres: radius, limit: 30)
            #expect(found.map(\.annotation.id) == expected.map(\.annotation.id), "\(step): \(query) \(radius) km")
            for (one, other) in zip(found, expected) {
                #expect(abs(one.relevance - other.relevance) < 1e-9, "\(step): \(query) \(one.annotation.id)")
                #expect(
                    one.annotation.title == other.annotation.title
                        && abs(one.distanceKilometres - other.distanceKilometres) < 1e-9)
            }
        }
    }

    /// Imports, a prune, a re-import of changed photos, a file read again as another photo, a photo made
    /// private: after each, the index scoped to the change against a rebuild (`rebuilt()` an empty index).
    static func followsRebuild(
        _ store: any LocalCatalogStore, _ index: any SearchIndex, rebuilt: () throws -> any SearchIndex
    ) throws {
        var catalog = store
        catalog.audiences = Audience.seen(by: nil)
        let indexer = CatalogIndexer(index: index)
        func change(
            _ changes: LocalCatalogChanges, written: [Photo], mayBeGone: [String] = [], _ step: String
        ) throws {
            let before = try catalog.version()
            _ = try catalog.apply(changes)
            try indexer.ensureLocal(catalog, changed: written, mayBeGone: mayBeGone, since: before)
            #expect(try index.marker("local") == String(try catalog.version()))
            try expectRebuilt(index, try rebuilt(), catalog, step)
        }
        let first = photos(0..<200)
        try change(changes(first, folder: "/a/"), written: first, "first import")
        try change(changes(photos(200..<240), folder: "/b/"), written: photos(200..<240), "second import")
        // 40 photos' files gone, pruned: their photos go, and only their records leave the index.
        var pruned = LocalCatalogChanges()
        pruned.gone = first[0..<40].map { Array(("/a/" + $0.id).utf8) }
        try change(pruned, written: [], mayBeGone: first[0..<40].map(\.id), "prune")
        #expect(try index.photo(id: "local-0") == nil && index.photo(id: "local-40") != nil)
        // Some of them imported again, changed, with others changed in place.
        let again = photos(20..<40, edition: 1) + photos(60..<80, edition: 1)
        try change(changes(again, folder: "/c/"), written: again, "re-import")
        // A file read again holding another photo: the photo it held goes with it.
        var replaced = changes(photos(300..<301), folder: "/b/")
        replaced.files = [(Array("/b/local-200".utf8), replaced.files[0].state)]
        try change(replaced, written: photos(300..<301), mayBeGone: ["local-200"], "file read again")
        // A photo made private leaves the index.
        let before = try catalog.version()
        try catalog.setPrivacy(PhotoPrivacy(visibility: .private), of: ["local-50"])
        try indexer.ensureLocal(catalog, changed: [], mayBeGone: ["local-50"], since: before)
        #expect(try index.photo(id: "local-50") == nil)
        try expectRebuilt(index, try rebuilt(), catalog, "made private")
        // Ids it never held go without an error.
        try index.remove(photos: ["local-9999", "place-1"], origin: "local")
        try expectRebuilt(index, try rebuilt(), catalog, "ids not held")
    }

    @Test("SQLite: imports, prunes and re-imports leave the index a rebuild gives")
    func sqlite() throws {
        let folder = try TemporaryFolder()
        var rebuilds = 0
        try Self.followsRebuild(
            try LocalCatalog(file: folder.url.appendingPathComponent("catalog.sqlite")),
            try LocalIndex(file: folder.url.appendingPathComponent("index.sqlite"))
        ) {
            rebuilds += 1
            return try LocalIndex(file: folder.url.appendingPathComponent("rebuilt-\(rebuilds).sqlite"))
        }
    }

    @Test("PostgreSQL: imports, prunes and re-imports leave the index and its word counts a rebuild gives")
    func postgres() throws {
        let database = try TestDatabase()
        let pool = try database.pool()
        var rebuilds: [TestDatabase] = []
        try Self.followsRebuild(PostgresLocalCatalog(pool: pool), PostgresIndex(pool: pool)) {
            rebuilds.append(try TestDatabase())
            return PostgresIndex(pool: try rebuilds[rebuilds.count - 1].pool(size: 1))
        }
        #expect(try TestDatabase.wordCountsDiffering(database.url) == "0")
    }
}
