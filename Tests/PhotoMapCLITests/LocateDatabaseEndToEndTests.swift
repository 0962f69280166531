// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// `locate` with `--database`: the PostgreSQL catalog records what the SQLite one does, and keeps it against
/// `geotag`, as a role that may create nothing.
@Suite("locate with --database", .serialized)
struct LocateDatabaseEndToEndTests {
    let fixture: LocateEndToEndTests

    init() throws {
        fixture = try LocateEndToEndTests()
    }

    @Test("locate --at, --like and --clear against PostgreSQL: manual, kept by geotag, unknown ids named")
    func sameAsSQLite() throws {
        let database = try TestDatabase()
        let run = { (arguments: [String]) in
            try PhotomapBinary.run(
                ["--cache", fixture.cache.url.path, "--database", try database.leastPrivilegedURL()] + arguments)
        }
        #expect(try run(["import", fixture.photos.url.path]).status == 0)
        var owner = PostgresLocalCatalog(pool: try database.pool())
        owner.showsFenced = true
        owner.audiences = Set(Audience.allCases)  // imports are private
        let ids = Dictionary(uniqueKeysWithValues: try owner.allPhotos().map { ($0.title, $0.id) })
        let bare = try #require(ids["bare"]), other = try #require(ids["other"]), own = try #require(ids["own"])

        let located = try run(["locate", bare, "--at", "46.3625,14.0936", "--json"])
        #expect(located.status == 0, "\(located.stderr)")
        #expect(located.stdout.contains("\"manual\""), "\(located.stdout)")
        #expect(try run(["locate", other, "--like", own]).status == 0)
        #expect(try run(["geotag", "--gpx", fixture.photos.url.appendingPathComponent("day.gpx").path]).status == 0)
        let records = Dictionary(uniqueKeysWithValues: try owner.allPhotos().map { ($0.title, $0) })
        #expect(records["bare"]?.coordinate == Coordinate(latitude: 46.3625, longitude: 14.0936))
        #expect(records["bare"]?.locationSource == .manual && records["bare"]?.placeID != LocalPlace.unlocatedID)
        #expect(records["other"]?.coordinate == records["own"]?.coordinate)
        #expect(records["other"]?.locationSource == .manual)
        #expect(try run(["locate", bare, "--clear"]).status == 0)
        let cleared = try #require(try owner.photo(id: bare))
        #expect(cleared.coordinate == nil && cleared.locationSource == .manual)
        let unknown = try run(["locate", "nosuchphoto", "--at", "1,2"])
        #expect(unknown.status == 1 && unknown.stderr.contains("nosuchphoto"), "\(unknown.stderr)")
    }
}
