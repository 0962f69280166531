// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// `trips` with `--database`: the PostgreSQL catalog keeps when each track line began, so a trip's way is
/// the track of its days there too, exactly as the cache folder's SQLite catalog gives it.
@Suite("Trips with --database", .serialized)
struct TripsDatabaseEndToEndTests {
    /// The photos and the GPX track of the trip pages' tests.
    let fixture: TripPagesEndToEndTests

    init() throws {
        fixture = try TripPagesEndToEndTests()
    }

    @Test("import --gpx and geotag against PostgreSQL: the trips, their kilometres and ways are SQLite's")
    func sameAsSQLite() throws {
        let database = try TestDatabase()
        let role = try database.leastPrivilegedURL()
        let postgres = try TemporaryFolder()
        let engine = ["--cache", postgres.url.path, "--database", role]
        let gpx = fixture.cache.url.appendingPathComponent("drive.gpx").path
        // The lines come once by import, once more by geotag: kept once, with their start.
        for arguments in [["import", fixture.photos.url.path, "--gpx", gpx], ["geotag", "--gpx", gpx]] {
            let run = try PhotomapBinary.run(engine + arguments)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let shared = PostgresLocalCatalog(pool: try database.pool())
        #expect(try shared.keptTrackLines().starts.allSatisfy { $0 != nil })
        #expect(try shared.keptTrackLines().lines.count == 3)

        let trips = ["--source", "local", "trips", "--home", "46.0569,14.5058"]
        for format in ["json", "geojson"] {
            let sqlite = try fixture.local(["trips", "--home", "46.0569,14.5058", "--format", format])
            let answer = try PhotomapBinary.run(engine + trips + ["--format", format])
            #expect(answer.status == 0, "\(answer.stderr)")
            #expect(answer.stdout == sqlite.stdout)
        }
        // visited reads the same places, covers and outlines from either catalog.
        for format in ["json", "csv", "geojson"] {
            let sqlite = try fixture.local(["visited", "--format", format])
            let answer = try PhotomapBinary.run(engine + ["--source", "local", "visited", "--format", format])
            #expect(answer.status == 0 && !answer.stdout.isEmpty, "\(answer.stderr)")
            #expect(answer.stdout == sqlite.stdout, "\(format)")
        }
        // Tuscany's way is the drive from home and the walk (about 400 km), not its photos' (about 60).
        let json = try PhotomapBinary.run(engine + trips + ["--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tuscany = try #require((document["trips"] as? [[String: Any]])?.last)
        #expect((330...480).contains(tuscany["km"] as? Double ?? 0), "\(tuscany)")
    }
}
