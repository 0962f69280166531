// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// `photomap locate`: locations set and removed by hand in the cache folder's catalog, kept against
/// `geotag` and a new import, with bad input refused.
@Suite("locate end to end", .serialized)
struct LocateEndToEndTests {
    /// A photo's own GPS (Ljubljana), and two photos without, taken in the track's hour.
    static let track = """
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="46.40" lon="14.15"><time>2024-07-12T08:00:00Z</time></trkpt>
        <trkpt lat="46.42" lon="14.17"><time>2024-07-12T09:00:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """

    let photos: TemporaryFolder
    let cache: TemporaryFolder

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        try ExifJPEG.writeShots(
            [
                ("own", "08:20", (46.0569, 14.5058)), ("bare", "08:30", nil), ("other", "08:40", nil),
            ], day: "2024:07:12", offset: "+00:00", in: photos.url)
        try Data(Self.track.utf8).write(to: photos.url.appendingPathComponent("day.gpx"))
    }

    func run(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path] + arguments)
    }

    /// The catalog's records by title.
    func records() throws -> [String: Photo] {
        let catalog = try LocalCatalog(file: LocalCatalog.file(in: cache.url), readOnly: true)
        catalog.showsFenced = true
        catalog.audiences = Set(Audience.allCases)  // the owner's view: imports are private
        return Dictionary(uniqueKeysWithValues: try catalog.allPhotos().map { ($0.title, $0) })
    }

    func version() throws -> Int {
        try LocalCatalog(file: LocalCatalog.file(in: cache.url), readOnly: true).version()
    }

    @Test("--at sets by hand; geotag and a new import keep it; --like, --clear, --dry-run, bad input")
    func setsAndKeeps() throws {
        #expect(try run(["import", photos.url.path]).status == 0)
        let ids = try records().mapValues(\.id)
        let bare = try #require(ids["bare"]), other = try #require(ids["other"]), own = try #require(ids["own"])

        // --dry-run lists the photos without a location, as they would be, and changes nothing.
        let before = try version()
        let dry = try run(["locate", "--without-location", "--at", "46.3625,14.0936", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let dryRows = try #require(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [[String: Any]])
        #expect(Set(dryRows.compactMap { $0["id"] as? String }) == [bare, other])
        #expect(try version() == before)
        #expect(try records()["bare"]?.coordinate == nil)

        // --at: JSON says "manual"; the record, its place and its note follow.
        let located = try run(["locate", bare, "--at", "46.3625,14.0936", "--json"])
        #expect(located.status == 0, "\(located.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(located.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows.first?["locationSource"] as? String == "manual")
        #expect(abs((rows.first?["latitude"] as? Double ?? 0) - 46.3625) < 1e-9)
        var bareRecord = try #require(try records()["bare"])
        #expect(bareRecord.coordinate == Coordinate(latitude: 46.3625, longitude: 14.0936))
        #expect(bareRecord.locationSource == .manual)
        #expect(bareRecord.placeID != LocalPlace.unlocatedID)
        #expect(bareRecord.locationNote == "location set by hand")
        #expect(try version() > before)
        let listed = try run(["--source", "local", "photos", "--place", bareRecord.placeID, "--json"])
        #expect(listed.stdout.contains("\"manual\""), "\(listed.stdout)")

        // geotag and an import of the unchanged files leave it; the track places the other photo.
        let track = photos.url.appendingPathComponent("day.gpx").path
        #expect(try run(["geotag", "--gpx", track]).status == 0)
        #expect(try run(["import", photos.url.path, "--gpx", track]).status == 0)
        bareRecord = try #require(try records()["bare"])
        #expect(bareRecord.coordinate == Coordinate(latitude: 46.3625, longitude: 14.0936))
        #expect(bareRecord.locationSource == .manual)
        #expect(try records()["other"]?.locationSource == .track)

        // --like: where another photo is. Already there by hand: nothing changes.
        #expect(try run(["locate", other, "--like", own]).status == 0)
        #expect(try records()["other"]?.coordinate == records()["own"]?.coordinate)
        #expect(try records()["other"]?.locationSource == .manual)
        let settled = try version()
        let again = try run(["locate", other, "--like", own])
        #expect(again.status == 0)
        #expect(again.stderr.contains("1 photo was there already"), "\(again.stderr)")
        #expect(try version() == settled)

        // --clear: no location, by hand, which tracks do not undo.
        #expect(try run(["locate", bare, "--clear"]).status == 0)
        #expect(try run(["geotag", "--gpx", track]).status == 0)
        bareRecord = try #require(try records()["bare"])
        #expect(bareRecord.coordinate == nil && bareRecord.locationSource == .manual)
        #expect(bareRecord.placeID == LocalPlace.unlocatedID)

        // Unknown ids are named (exit 1), nothing changes; bad coordinates are usage errors (exit 2).
        let stable = try version()
        let unknown = try run(["locate", bare, "nosuchphoto", "--at", "1,2"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("nosuchphoto") && !unknown.stderr.contains(bare), "\(unknown.stderr)")
        let noLocation = try run(["locate", other, "--like", bare])
        #expect(noLocation.status == 1 && noLocation.stderr.contains("has no location"), "\(noLocation.stderr)")
        for bad in ["95,10", "10,181", "north,east", "1", "nan,1"] {
            let refused = try run(["locate", bare, "--at", bad])
            #expect(refused.status == 2, "\(bad): \(refused.stderr)")
            #expect(refused.stderr.contains("--at"), "\(refused.stderr)")
        }
        #expect(try run(["locate", bare]).status == 2)
        #expect(try run(["locate", "--at", "1,2"]).status == 2)
        #expect(try run(["locate", bare, "--at", "1,2", "--clear"]).status == 2)
        #expect(try version() == stable)
    }

    @Test("--help has examples; --find puts photos at find's first answer")
    func helpAndFind() throws {
        let help = try run(["locate", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--like") && help.stdout.contains("locate 5f2c"))
        #expect(try run(["import", photos.url.path]).status == 0)
        let bare = try #require(try records()["bare"]?.id)
        let found = try run(["find", "Kranj", "--json", "--limit", "1"])
        #expect(found.status == 0, "\(found.stderr)")
        let answer = try #require(
            (try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [[String: Any]])?.first)
        let located = try run(["locate", bare, "--find", "Kranj"])
        #expect(located.status == 0, "\(located.stderr)")
        let record = try #require(try records()["bare"])
        #expect(record.coordinate?.latitude == answer["latitude"] as? Double)
        #expect(record.coordinate?.longitude == answer["longitude"] as? Double)
        let missing = try run(["locate", bare, "--find", "Qxzqxzqx"])
        #expect(missing.status == 1, "\(missing.stderr)")
    }
}
