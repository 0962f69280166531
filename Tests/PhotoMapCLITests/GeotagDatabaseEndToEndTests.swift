// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// `import --gpx` and `geotag` with `--database`: the PostgreSQL catalog gives exactly the answer the cache
/// folder's SQLite catalog gives for the same photos and tracks, as a role that may create nothing.
@Suite("Geotagging with --database", .serialized)
struct GeotagDatabaseEndToEndTests {
    /// The photos and tracks of the exiftool comparison.
    let fixture: GeotagEndToEndTests
    /// A fence around the track's first fix, where the clock offset puts "between".
    static let fence = ["fences", "add", "trail", "--near", "46.3625,14.0940", "--radius", "100"]

    init() throws {
        fixture = try GeotagEndToEndTests()
    }

    /// Each photo's record by title, as others see them (fenced ones without a location).
    func records(_ store: any LocalCatalogStore) throws -> [String: Photo] {
        Dictionary(uniqueKeysWithValues: try store.allPhotos().map { ($0.title, $0) })
    }

    @Test("geotag and import --gpx against PostgreSQL: SQLite's locations, sources, estimates, tracks and fences")
    func sameAsSQLite() throws {
        let database = try TestDatabase()
        let role = try database.leastPrivilegedURL()
        let sqlite = try TemporaryFolder()
        let postgres = try TemporaryFolder()
        let engines: [[String]] = [["--cache", sqlite.url.path], ["--cache", postgres.url.path, "--database", role]]
        let geotag = [
            "geotag", "--gpx", fixture.trackFile, fixture.badFile, "--clock-offset", "-900", "--estimate-within", "60",
        ]
        var outputs: [[String]] = []
        for engine in engines {
            let runs = try [
                ["import", "--visibility", "public", fixture.photos.url.path], Self.fence, geotag,
            ].map { try PhotomapBinary.run(engine + $0, environment: ["TZ": GeotagEndToEndTests.zone]) }
            for run in runs { #expect(run.status == 0, "\(run.stderr)") }
            outputs.append(runs.map(\.stderr))
        }
        // The same summaries: as many photos located from the tracks, estimated, points skipped.
        #expect(outputs[0] == outputs[1])
        #expect(outputs[1][2].contains("1 estimated from neighbours, 3 track points skipped"), "\(outputs[1][2])")
        let local = try LocalCatalog(file: LocalCatalog.file(in: sqlite.url), readOnly: true)
        let shared = PostgresLocalCatalog(pool: try database.pool())
        // Every record the same: coordinates to the bit, place, where it came from, the estimate's offset.
        let expected = try records(local)
        #expect(try records(shared) == expected)
        #expect(expected.values.filter { $0.locationSource == .track }.count > 1)
        #expect(expected.values.filter { $0.locationSource == .estimated }.count == 1)
        #expect(try shared.trackLines() == local.trackLines())
        #expect(try shared.trackLines().lines.count == 3)
        // The fence hides the photo the track put in it (located after the fence was added), on both.
        #expect(expected["between"]?.coordinate == nil)
        var owner = shared
        owner.showsFenced = true
        let between = try #require(try records(owner)["between"]?.coordinate)
        #expect(fixture.metres(between, (46.3625, 14.0940)) < 100)
        #expect(try records(owner)["between"]?.locationSource == .track)
        // Only the fenced ones are shown without: more located from the track to their owner.
        #expect(
            try records(owner).values.filter { $0.locationSource == .track }.count
                > expected.values.filter { $0.locationSource == .track }.count)
        local.showsFenced = true
        #expect(try records(owner) == records(local))

        // import --gpx straight into each catalog: the same again.
        let direct = try TestDatabase().leastPrivilegedURL()
        let caches = try [TemporaryFolder(), TemporaryFolder()]
        let imports = try [["--cache", caches[0].url.path], ["--cache", caches[1].url.path, "--database", direct]].map {
            try PhotomapBinary.run(
                $0 + [
                    "import", "--visibility", "public", fixture.photos.url.path, "--gpx", fixture.trackFile,
                    "--timezone", "Europe/Ljubljana",
                ])
        }
        #expect(imports.map(\.status) == [0, 0])
        #expect(imports[0].stderr == imports[1].stderr)
        #expect(imports[1].stderr.contains("from 2 tracks)"), "\(imports[1].stderr)")
        let directPool = try PostgresPool(address: DatabaseAddress(direct), size: 1)
        #expect(
            try records(PostgresLocalCatalog(pool: directPool))
                == records(LocalCatalog(file: LocalCatalog.file(in: caches[0].url), readOnly: true)))
        // A second import reads nothing and counts the located photos by their sources, as SQLite's does.
        // The folders are kept to the end: optimised, the array's last use would be its paths' reading, and
        // its folders (SQLite's catalog among them) would be gone before the imports ran.
        let again = try withExtendedLifetime(caches) {
            try [["--cache", caches[0].url.path], ["--cache", caches[1].url.path, "--database", direct]].map {
                try PhotomapBinary.run($0 + ["import", "--visibility", "public", fixture.photos.url.path]).stderr
            }
        }
        #expect(again[0] == again[1])
        #expect(again[1].contains("14 unchanged"), "\(again[1])")
    }

    @Test("a zone off by five hours against PostgreSQL: the same summaries as SQLite's, the same positions cleared")
    func wrongZone() throws {
        let sqlite = try GeotagZoneEndToEndTests()
        let expected = try sqlite.wrongRightWrong {
            try LocalCatalog(file: LocalCatalog.file(in: sqlite.cache.url), readOnly: true)
        }
        let database = try TestDatabase()
        let postgres = try GeotagZoneEndToEndTests()
        let pool = try database.pool()
        #expect(
            try postgres.wrongRightWrong(database: database.leastPrivilegedURL()) { PostgresLocalCatalog(pool: pool) }
                == expected)
    }

    @Test("a database migrated by an older photomap: geotag exits 1 asking for `db migrate`, then works as the role")
    func olderSchema() throws {
        let database = try TestDatabase()
        // Schema version 4, as the photomap before tracks in PostgreSQL left it.
        try TestDatabase.psql(
            database.url,
            """
            ALTER TABLE local_photos DROP COLUMN clock, DROP COLUMN subsecond, DROP COLUMN clock_offset,
                DROP COLUMN make, DROP COLUMN model, DROP COLUMN location_source, DROP COLUMN visibility,
                DROP COLUMN location_audience, DROP COLUMN date_taken;
            DROP TABLE local_track_lines; DROP TABLE sessions, sign_in_links, users;
            \(TestDatabase.withoutTripDays)
            DROP TABLE map_points, map_cells, map_totals, location_edits;
            DROP FUNCTION map_photo_changed, map_point_added, map_point_removed, map_key, map_month CASCADE;
            DELETE FROM photomap_schema WHERE version >= 5
            """)
        let role = try database.leastPrivilegedURL()
        let cache = try TemporaryFolder()
        for command in [
            ["geotag", "--gpx", fixture.trackFile], ["import", "--visibility", "public", fixture.photos.url.path],
        ] {
            let run = try PhotomapBinary.run(["--cache", cache.url.path, "--database", role] + command)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(
                run.stderr.contains("schema version 4, older than this photomap's \(DatabaseSchema.currentVersion)"),
                "\(run.stderr)")
            #expect(run.stderr.contains("run `photomap db migrate`"), "\(run.stderr)")
        }
        // The owner migrates; the role made before (by deploy/roles.sql) reads and writes the new table.
        let migrated = try PhotomapBinary.run(["--database", database.url, "db", "migrate"])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let imported = try PhotomapBinary.run(
            [
                "--cache", cache.url.path, "--database", role, "import", "--visibility", "public",
                fixture.photos.url.path,
            ],
            environment: ["TZ": GeotagEndToEndTests.zone])
        #expect(imported.status == 0, "\(imported.stderr)")
        let geotagged = try PhotomapBinary.run(
            ["--cache", cache.url.path, "--database", role, "geotag", "--gpx", fixture.trackFile],
            environment: ["TZ": GeotagEndToEndTests.zone])
        #expect(geotagged.status == 0, "\(geotagged.stderr)")
        #expect(geotagged.stderr.contains("13 photos without a location, "), "\(geotagged.stderr)")
        let shared = PostgresLocalCatalog(pool: try database.pool())
        #expect(try shared.trackLines().lines.count == 3)
        #expect(try shared.allPhotos().contains { $0.locationSource == .track })
    }

    @Test(
        "a running serve draws the owner the tracks a geotag added within a second or so, on either catalog",
        arguments: StateEngine.allCases)
    func serveReadsNewTracks(engine: StateEngine) throws {
        let place = try engine.place(in: try TemporaryFolder().url)
        #expect(
            try PhotomapBinary.run(place.arguments + ["import", "--visibility", "public", fixture.photos.url.path])
                .status == 0)
        let password = "correct horse battery"
        let added = try PhotomapBinary.addUser("olga", role: "owner", password: password, arguments: place.arguments)
        #expect(added.status == 0, "\(added.stderr)")
        let server = try ServeProcess(place.arguments + ["--source", "local"], environment: [:])
        defer { _ = server.stop() }
        // The tracks are the owner's.
        let owner = try #require(try server.signIn("olga", password: password))
        let top = { String(decoding: try server.request("/", headers: ["Cookie": owner]).body, as: UTF8.self) }
        // Nothing drawn: no track yet, the only photo located by its own GPS far from where the track goes.
        let before = try top()
        #expect(!before.contains("\"tracks\""), "\(before.suffix(400))")
        let geotagged = try PhotomapBinary.run(
            place.arguments + ["geotag", "--gpx", fixture.trackFile], environment: ["TZ": GeotagEndToEndTests.zone])
        #expect(geotagged.status == 0, "\(geotagged.stderr)")
        Thread.sleep(forTimeInterval: 1.1)
        let after = try top()
        #expect(after.contains("\"tracks\""), "\(after.suffix(400))")
        let anyone = String(decoding: try server.request("/").body, as: UTF8.self)
        #expect(!anyone.contains("\"tracks\""), "the tracks are the owner's only")
    }
}
