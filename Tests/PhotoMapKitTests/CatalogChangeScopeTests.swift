// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// A change of the catalog touches only its own photos (an import's files, a location set, a fence's band),
/// and leaves the catalog exactly as a refresh of every photo would: on SQLite and on PostgreSQL.
@Suite("Catalog changes scoped to their photos")
struct CatalogChangeScopeTests {
    /// The photos of `store` a fence holds, as the flags stored say, and as a refresh of every photo makes them.
    static func hidden(in store: any LocalCatalogStore) throws -> (stored: Set<String>, full: Set<String>) {
        var owner = store
        owner.audiences = Set(Audience.allCases)
        let ids = try owner.allPhotos().map(\.id)
        let stored = Set(try owner.listed(ids: ids).filter(\.value).map(\.key))
        return (stored, try store.fences().hiddenIDs(try store.locatedCoordinates()))
    }

    /// Imports, locates and fences in turn, checking after each that the flags equal a full refresh.
    static func fencesFollow(_ store: any LocalCatalogStore) throws {
        var world = WorldMapCatalog()
        let photos = world.photos(120)
        _ = try store.apply(WorldMapCatalog.changes(Array(photos.prefix(80))))
        let ljubljana = try #require(Coordinate(latitude: 46.05, longitude: 14.5))
        try store.add(Geofence(name: "home", centre: ljubljana, radius: 6000))
        var check = try hidden(in: store)
        #expect(!check.full.isEmpty)
        #expect(check.stored == check.full)
        // More photos imported, some of them in the fence.
        var later = WorldMapCatalog.changes(Array(photos.suffix(40)))
        later.files = later.files.map { ([UInt8]("later/".utf8) + $0.path, $0.state) }
        _ = try store.apply(later)
        check = try hidden(in: store)
        #expect(check.stored == check.full)
        // Photos moved into the fence and out of it.
        let outside = try #require(photos.first { !check.full.contains($0.id) })
        let inside = try #require(photos.first { check.full.contains($0.id) })
        let elsewhere = try #require(Coordinate(latitude: 10, longitude: 10))
        _ = try store.locate([
            LocatedPhoto(
                id: outside.id, coordinate: ljubljana, place: .unlocated, source: .manual, estimateOffset: nil),
            LocatedPhoto(id: inside.id, coordinate: elsewhere, place: .unlocated, source: .manual, estimateOffset: nil),
        ])
        check = try hidden(in: store)
        #expect(check.full.contains(outside.id) && !check.full.contains(inside.id))
        #expect(check.stored == check.full)
        // A second fence overlapping the first, then the first removed: its photos in the second stay hidden.
        let paris = try #require(Coordinate(latitude: 48.85, longitude: 2.35))
        try store.add(Geofence(name: "paris", centre: paris, radius: 8000))
        try store.add(Geofence(name: "near", centre: ljubljana, radius: 3000))
        try store.removeFence(named: "home")
        check = try hidden(in: store)
        #expect(check.stored == check.full)
        try store.removeFence(named: "paris")
        check = try hidden(in: store)
        #expect(check.stored == check.full)
    }

    /// Files below one folder gone: only the photos no other file holds go, the files elsewhere stay.
    static func pruneScoped(_ store: any LocalCatalogStore) throws {
        var world = WorldMapCatalog()
        let photos = world.photos(30)
        var changes = WorldMapCatalog.changes(photos)
        // Photos 0–9 below /a, 10–29 below /a-b and /ab (a folder's neighbours in byte order); photo 0 also in /b.
        changes.files = changes.files.enumerated().map { index, file in
            let folder = index < 10 ? "/a/" : index % 2 == 0 ? "/a-b/" : "/ab/"
            return (Array(folder.utf8) + file.path, file.state)
        }
        var copy = changes.files[0]
        copy.path = Array("/b/copy".utf8)
        changes.files.append(copy)
        _ = try store.apply(changes)
        let below = try store.files(below: [Array("/a".utf8)])
        #expect(Set(below.keys) == Set(changes.files.prefix(10).map(\.path)))
        #expect(try store.files(below: [Array("/b/copy".utf8)]).count == 1)
        var pruned = LocalCatalogChanges()
        pruned.gone = Array(below.keys)
        #expect(try store.apply(pruned) == 9)
        var owner = store
        owner.audiences = Set(Audience.allCases)
        #expect(Set(try owner.allPhotos().map(\.id)) == Set(photos.map(\.id)).subtracting(photos[1..<10].map(\.id)))
        // Every photo left has a file, as a scan of the whole catalog would leave it.
        let held = Set(try store.files().values.compactMap(\.photo))
        #expect(Set(try owner.allPhotos().map(\.id)).isSubset(of: held))
        #expect(try store.located(ids: [photos[0].id, photos[1].id]) == [photos[0].id: true])
    }

    @Test("SQLite: imports, locations and fences keep the flags a full refresh gives")
    func sqliteFences() throws {
        let folder = try TemporaryFolder()
        try Self.fencesFollow(try LocalCatalog(file: folder.url.appendingPathComponent("catalog.sqlite")))
    }

    @Test("SQLite: a prune drops only the photos of the files gone below its folders")
    func sqlitePrune() throws {
        let folder = try TemporaryFolder()
        try Self.pruneScoped(try LocalCatalog(file: folder.url.appendingPathComponent("catalog.sqlite")))
    }

    @Test("PostgreSQL: imports, locations and fences keep the flags a full refresh gives")
    func postgresFences() throws {
        try Self.fencesFollow(PostgresLocalCatalog(pool: try TestDatabase().pool()))
    }

    @Test("PostgreSQL: a prune drops only the photos of the files gone below its folders")
    func postgresPrune() throws {
        try Self.pruneScoped(PostgresLocalCatalog(pool: try TestDatabase().pool()))
    }
}
