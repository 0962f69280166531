// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// A records import's search index follows its batches on a thread of its own (`IndexFollower`): the index
/// ends as a rebuild would leave it; an index someone else changed is left alone and made again whole; a
/// failure reaches the importer.
@Suite("The search index follows batches on its own thread")
struct IndexFollowerTests {
    /// Five batches of 60 photos, the last re-importing some of the first changed, each handed as it is
    /// written; returns whether the follower stayed in step.
    static func importBatches(
        _ catalog: any LocalCatalogStore, _ follower: IndexFollower
    ) throws -> Bool {
        var batches = (0..<4).map { SearchIndexRemovalTests.photos($0 * 60..<($0 + 1) * 60) }
        batches.append(SearchIndexRemovalTests.photos(20..<50, edition: 1))
        for (number, photos) in batches.enumerated() {
            let before = try catalog.version()
            _ = try catalog.apply(SearchIndexRemovalTests.changes(photos, folder: "/batch\(number)/"))
            try follower.hand(CatalogIndexer.localChange(catalog, changed: photos, since: before))
        }
        return try follower.finish()
    }

    /// The follower over `catalog`'s five batches, the index checked against a rebuild (`rebuilt()` empty).
    static func follows(
        _ catalog: any LocalCatalogStore, _ index: any SearchIndex, rebuilt: () throws -> any SearchIndex
    ) throws {
        var catalog = catalog
        catalog.audiences = Audience.seen(by: nil)
        let indexer = CatalogIndexer(index: index)
        try indexer.ensureLocal(catalog)
        #expect(try importBatches(catalog, IndexFollower(indexer, adapter: AnnotationAdapter())))
        #expect(try index.marker("local") == String(try catalog.version()))
        try SearchIndexRemovalTests.expectRebuilt(index, try rebuilt(), catalog, "followed")
    }

    @Test("SQLite: batches followed in order leave the index a rebuild gives")
    func sqlite() throws {
        let folder = try TemporaryFolder()
        try Self.follows(
            try LocalCatalog(file: folder.url.appendingPathComponent("catalog.sqlite")),
            try LocalIndex(file: folder.url.appendingPathComponent("index.sqlite"))
        ) { try LocalIndex(file: folder.url.appendingPathComponent("rebuilt.sqlite")) }
    }

    @Test("PostgreSQL: batches followed in order leave the index and its word counts a rebuild gives")
    func postgres() throws {
        let database = try TestDatabase()
        let pool = try database.pool()
        let rebuilt = try TestDatabase()
        try Self.follows(PostgresLocalCatalog(pool: pool), PostgresIndex(pool: pool)) {
            PostgresIndex(pool: try rebuilt.pool(size: 1))
        }
        #expect(try TestDatabase.wordCountsDiffering(database.url) == "0")
    }

    @Test("an index another writer moved is not written; the importer makes it again whole")
    func outOfStep() throws {
        let folder = try TemporaryFolder()
        var catalog: any LocalCatalogStore = try LocalCatalog(file: folder.url.appendingPathComponent("catalog.sqlite"))
        catalog.audiences = Audience.seen(by: nil)
        let index = try LocalIndex(file: folder.url.appendingPathComponent("index.sqlite"))
        try index.setMarker("local", "another writer's")
        let indexer = CatalogIndexer(index: index)
        #expect(try !Self.importBatches(catalog, IndexFollower(indexer, adapter: AnnotationAdapter())))
        #expect(try index.count() == 0 && index.marker("local") == "another writer's")
        try indexer.ensureLocal(catalog)
        try SearchIndexRemovalTests.expectRebuilt(
            index, try LocalIndex(file: folder.url.appendingPathComponent("rebuilt.sqlite")), catalog, "rebuilt")
    }

    @Test("a failed write is thrown at the next batch handed, and by finish; nothing after it is written")
    func failure() throws {
        let folder = try TemporaryFolder()
        let catalog = try LocalCatalog(file: folder.url.appendingPathComponent("catalog.sqlite"))
        let index = FailingIndex(try LocalIndex(file: folder.url.appendingPathComponent("index.sqlite")))
        let indexer = CatalogIndexer(index: index)
        try indexer.ensureLocal(catalog)
        let follower = IndexFollower(indexer, adapter: AnnotationAdapter())
        var thrown = 0
        for number in 0..<3 {
            let photos = SearchIndexRemovalTests.photos(number * 10..<(number + 1) * 10)
            let before = try catalog.version()
            _ = try catalog.apply(SearchIndexRemovalTests.changes(photos, folder: "/\(number)/"))
            do {
                try follower.hand(CatalogIndexer.localChange(catalog, changed: photos, since: before))
            } catch {
                thrown += 1
                #expect(error as? FailingIndex.Failure != nil)
            }
        }
        #expect(thrown == 2)
        #expect(throws: FailingIndex.Failure.self) { try follower.finish() }
        #expect(index.adds.withLock { $0 } == 1)
    }
}

/// An index whose every `add` of records fails (counted), the rest passed on.
final class FailingIndex: SearchIndex, @unchecked Sendable {
    struct Failure: Error {}
    let inner: any SearchIndex
    let adds = Locked(0)

    init(_ inner: any SearchIndex) { self.inner = inner }

    func add(_ records: [IndexRecord], origin: String) throws {
        guard !records.isEmpty else { return try inner.add(records, origin: origin) }
        adds.withLock { $0 += 1 }
        throw Failure()
    }
    func search(
        _ query: String, near centre: Coordinate?, radiusKilometres: Double, limit: Int, photoIDs: [String]?
    ) throws -> [SearchHit] {
        try inner.search(query, near: centre, radiusKilometres: radiusKilometres, limit: limit, photoIDs: photoIDs)
    }
    func photo(id: String) throws -> Photo? { try inner.photo(id: id) }
    func count() throws -> Int { try inner.count() }
    func marker(_ key: String) throws -> String? { try inner.marker(key) }
    func setMarker(_ key: String, _ value: String) throws { try inner.setMarker(key, value) }
    func remove(origin: String) throws { try inner.remove(origin: origin) }
    func remove(photos ids: [String], origin: String) throws { try inner.remove(photos: ids, origin: origin) }
}
