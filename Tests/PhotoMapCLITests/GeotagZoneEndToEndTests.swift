// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// `geotag` with a zone off by five hours: the summary says why the photos stayed without a location and
/// names the right zone; the right zone places them; the wrong one again takes back what the tracks placed.
@Suite("Geotagging with a wrong zone, explained and undone", .serialized)
struct GeotagZoneEndToEndTests {
    /// The photos (taken in Ljubljana, +02:00 in July) and tracks of the exiftool comparison.
    let fixture: GeotagEndToEndTests
    let cache: TemporaryFolder

    init() throws {
        fixture = try GeotagEndToEndTests()
        cache = try TemporaryFolder()
    }

    /// `geotag` of the fixture's track in zone `zone`, on the cache folder's catalog (and on `database`).
    func geotag(_ zone: String, _ more: [String] = [], database: String? = nil) throws -> PhotomapBinary.Result {
        let engine = ["--cache", cache.url.path] + (database.map { ["--database", $0] } ?? [])
        let run = try PhotomapBinary.run(engine + ["geotag", "--gpx", fixture.trackFile, "--timezone", zone] + more)
        #expect(run.status == 0, "\(run.stderr)")
        return run
    }

    /// Each photo's coordinate and where it came from, by title.
    func located(_ store: any LocalCatalogStore) throws -> [String: LocationSource] {
        Dictionary(
            uniqueKeysWithValues: try store.allPhotos().compactMap { photo in
                photo.coordinate == nil ? nil : photo.locationSource.map { (photo.title, $0) }
            })
    }

    /// The three runs on one catalog: wrong zone, right zone, wrong zone again; returns their summaries.
    func wrongRightWrong(database: String? = nil, store: () throws -> any LocalCatalogStore) throws -> [String] {
        let engine = ["--cache", cache.url.path] + (database.map { ["--database", $0] } ?? [])
        let imported = try PhotomapBinary.run(engine + ["import", "--visibility", "public", fixture.photos.url.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Five hours west of the camera: every photo without an offset of its own is after the track;
        // --report names each photo left without a location, and why.
        let wrong = try geotag("-03:00", ["--report"], database: database)
        #expect(
            wrong.stderr.contains("after the last fix — is the camera's zone +02:00? see --timezone, --clock-offset"),
            "\(wrong.stderr)")
        #expect(wrong.stdout.contains("gap-middle.jpg: taken "), "\(wrong.stdout)")
        #expect(wrong.stdout.contains(" after the last fix\n"), "\(wrong.stdout)")
        let ownOffsets = try located(store()).filter { $0.value == .track }.count

        let right = try geotag("+02:00", database: database)
        let placed = try located(store())
        let fromTracks = placed.filter { $0.value == .track }.count
        #expect(fromTracks > ownOffsets + 3, "\(right.stderr)")
        #expect(placed["own-gps"] == .exif)
        #expect(right.stderr.contains("\(fromTracks - ownOffsets) located from 2 tracks"), "\(right.stderr)")

        // Wrong again: the positions the tracks gave go; the photo's own GPS and own offsets stay.
        let again = try geotag("-03:00", database: database)
        #expect(again.stderr.contains(", \(fromTracks - ownOffsets) lost their location"), "\(again.stderr)")
        #expect(try located(store()).filter { $0.value == .track }.count == ownOffsets)
        #expect(try located(store())["own-gps"] == .exif)
        return [wrong, right, again].map(\.stderr)
    }

    @Test("a zone off by five hours: the right zone named; the right one places, the wrong one again clears")
    func wrongZone() throws {
        _ = try wrongRightWrong { try LocalCatalog(file: LocalCatalog.file(in: cache.url), readOnly: true) }
    }
}
