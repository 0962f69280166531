// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// Trips' routes and pages on a small imported catalog with a GPX track: home in Ljubljana, a week in
/// Tuscany (the drive there recorded from the front door, a day with only a photo without a location, a
/// walk in Arezzo recorded), New Year in Vienna without a track, and a walk at home (no trip's).
@Suite("Trip routes and pages end to end", .serialized)
struct TripPagesEndToEndTests {
    let photos: TemporaryFolder
    let cache: TemporaryFolder

    static let home = Coordinate(latitude: 46.0569, longitude: 14.5058)!

    /// Name, local time taken, its offset, and where (nil: no location).
    static let taken: [(String, String, String?, (Double, Double)?)] = [
        ("home-1", "2024:03:01 10:00:00", "+01:00", (46.0569, 14.5058)),
        ("home-2", "2024:03:02 10:00:00", "+01:00", (46.0520, 14.5100)),
        ("home-3", "2024:03:03 10:00:00", "+01:00", (46.0600, 14.5000)),
        ("home-4", "2024:07:14 10:00:00", "+02:00", (46.0569, 14.5058)),
        ("florence-1", "2024:07:10 15:00:00", "+02:00", (43.7696, 11.2558)),
        ("florence-2", "2024:07:10 18:00:00", "+02:00", (43.7731, 11.2560)),
        ("lost", "2024:07:11 12:00:00", "+02:00", nil),
        ("arezzo", "2024:07:12 12:00:00", "+02:00", (43.4633, 11.8796)),
        ("vienna-1", "2024:12:31 23:30:00", "+01:00", (48.2082, 16.3738)),
        ("vienna-2", "2025:01:01 00:30:00", "+01:00", (48.2100, 16.3700)),
    ]

    /// The drive from the front door to Florence on 10 July (UTC times: 07:00 to 12:00 local), a walk in
    /// Arezzo on 12 July, and a walk at home in March.
    static let track = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="photomap tests" xmlns="http://www.topografix.com/GPX/1/1"><trk>
        <trkseg>
        <trkpt lat="46.0569" lon="14.5058"><time>2024-07-10T05:00:00Z</time></trkpt>
        <trkpt lat="46.0500" lon="14.4900"><time>2024-07-10T05:02:00Z</time></trkpt>
        <trkpt lat="46.0300" lon="14.4500"><time>2024-07-10T05:06:00Z</time></trkpt>
        <trkpt lat="45.8000" lon="13.9000"><time>2024-07-10T06:00:00Z</time></trkpt>
        <trkpt lat="45.6500" lon="13.7700"><time>2024-07-10T06:30:00Z</time></trkpt>
        <trkpt lat="45.4000" lon="12.3000"><time>2024-07-10T08:00:00Z</time></trkpt>
        <trkpt lat="44.5000" lon="11.3400"><time>2024-07-10T09:30:00Z</time></trkpt>
        <trkpt lat="43.7696" lon="11.2558"><time>2024-07-10T10:00:00Z</time></trkpt>
        </trkseg>
        <trkseg>
        <trkpt lat="43.4633" lon="11.8796"><time>2024-07-12T08:00:00Z</time></trkpt>
        <trkpt lat="43.4660" lon="11.8820"><time>2024-07-12T08:20:00Z</time></trkpt>
        <trkpt lat="43.4690" lon="11.8850"><time>2024-07-12T08:40:00Z</time></trkpt>
        </trkseg>
        <trkseg>
        <trkpt lat="46.0569" lon="14.5058"><time>2024-03-02T09:00:00Z</time></trkpt>
        <trkpt lat="46.0600" lon="14.5100"><time>2024-03-02T09:30:00Z</time></trkpt>
        </trkseg>
        </trk></gpx>
        """

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        try ExifJPEG.writeTaken(Self.taken, in: photos.url)
        try Data(Self.track.utf8).write(to: cache.url.appendingPathComponent("drive.gpx"))
        let imported = try PhotomapBinary.run([
            "--cache", cache.url.path, "import", photos.url.path, "--visibility", "public", "--gpx",
            cache.url.appendingPathComponent("drive.gpx").path,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    func local(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path, "--source", "local"] + arguments)
    }

    /// The points of a page's or a GeoJSON's lines.
    static func points(ofDrawing tracks: [String: Any]) -> [Coordinate] {
        let scale = (tracks["scale"] as? Double) ?? 100_000
        return ((tracks["lines"] as? [[Double]]) ?? []).flatMap { numbers in
            var (latitude, longitude) = (0.0, 0.0)
            return stride(from: 0, to: numbers.count - 1, by: 2).compactMap { index -> Coordinate? in
                latitude += numbers[index]
                longitude += numbers[index + 1]
                return Coordinate(latitude: latitude / scale, longitude: longitude / scale)
            }
        }
    }

    @Test("A trip's way is the track of its days; others' stops 1 km before home")
    func routes() throws {
        let json = try local(["trips", "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let trips = try #require(document["trips"] as? [[String: Any]])
        #expect(trips.map { $0["id"] as? String } == ["2024-12-31", "2024-07-10"])
        // Tuscany's way is the drive from home and the walk (about 400 km), not Florence to Arezzo (about 60).
        let km = try #require(trips.last?["km"] as? Double)
        #expect((330...480).contains(km), "\(km)")
        // Vienna has no track: its photos' way, a few hundred metres.
        #expect((trips.first?["km"] as? Double ?? 99) < 1)

        let geojson = try local(["trips", "--format", "geojson", "--home", "46.0569,14.5058"])
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        let tuscany = try #require(features.last?["geometry"] as? [String: Any])
        let lines: [[[Double]]] =
            tuscany["type"] as? String == "LineString"
            ? [try #require(tuscany["coordinates"] as? [[Double]])]
            : try #require(tuscany["coordinates"] as? [[[Double]]])
        #expect(lines.count == 2)
        let points = lines.joined().compactMap { Coordinate(latitude: $0[1], longitude: $0[0]) }
        #expect(points.count > 8)
        #expect(points.allSatisfy { $0.distance(to: Self.home) >= 0.999 })
        #expect(points.contains { $0.distance(to: Self.home) < 1.1 })
    }

    @Test("serve: the index of trips, a trip's page with its days, photos linking to their trip")
    func servedPages() throws {
        // Home as serve finds it: the town of most days, at the gazetteer's centre of Ljubljana.
        let found = try local(["trips", "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any])
        let homeFields = try #require(document["home"] as? [String: Any])
        let home = try #require(
            Coordinate(
                latitude: try #require(homeFields["latitude"] as? Double),
                longitude: try #require(homeFields["longitude"] as? Double)))
        let added = try PhotomapBinary.addUser(
            "owner", role: "owner", password: "a long password", arguments: ["--cache", cache.url.path])
        #expect(added.status == 0, "\(added.stderr)")
        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        defer { server.stop() }
        let cookie = try #require(try server.signIn("owner", password: "a long password"))
        let index = try server.request("/trips")
        #expect(index.status == 200)
        let indexPage = String(decoding: index.body, as: UTF8.self)
        #expect(indexPage.contains("<h1>Trips</h1>"))
        #expect(indexPage.contains("href=\"/trips/2024-07-10\""))
        #expect(indexPage.contains("href=\"/trips/2024-12-31\""))
        #expect(!indexPage.contains("Ljubljana"))

        // Anyone else is drawn the photos' way: the tracks are the owner's.
        let others = String(decoding: try server.request("/trips/2024-07-10").body, as: UTF8.self)
        #expect(others.contains("<h1>Tuscany, Italy</h1>"))
        let othersDrawn = Self.points(ofDrawing: try #require(Self.pageData(others)?["tracks"] as? [String: Any]))
        #expect(!othersDrawn.isEmpty && othersDrawn.count <= 3, "\(othersDrawn)")

        let answer = try server.request("/trips/2024-07-10", headers: ["Cookie": cookie])
        #expect(answer.status == 200)
        let page = String(decoding: answer.body, as: UTF8.self)
        #expect(page.contains("<h1>Tuscany, Italy</h1>"))
        for (number, date) in [(1, "2024-07-10"), (2, "2024-07-11"), (3, "2024-07-12")] {
            #expect(page.contains("<h2 id=\"day-\(number)-title\">Day \(number) · \(date)</h2>"))
        }
        #expect(page.contains("id=\"day-map-1\""))
        #expect(page.contains("id=\"day-map-3\""))
        // The day with only a photo without a location has no map, and says so.
        #expect(!page.contains("id=\"day-map-2\""))
        #expect(page.contains("No located photo"))
        #expect(page.contains("photomap-trip.js"))
        #expect(!page.contains("Ljubljana"))

        let data = try #require(Self.pageData(page))
        let tracks = try #require(data["tracks"] as? [String: Any])
        let drawn = Self.points(ofDrawing: tracks)
        #expect(drawn.count > 8)
        #expect(drawn.allSatisfy { $0.distance(to: home) >= 0.99 })
        let days = try #require(data["days"] as? [[String: Any]])
        #expect(days.map { $0["map"] as? String } == ["day-map-1", "day-map-2", "day-map-3"])
        #expect(days.map { ($0["entries"] as? [Int])?.count } == [2, 0, 1])
        // Day 1's way is the drive, cut before home; day 3's the walk.
        let firstDay = Self.points(ofDrawing: try #require(days[0]["tracks"] as? [String: Any]))
        #expect(firstDay.contains { $0.distance(to: home) < 1.1 })
        #expect(firstDay.allSatisfy { $0.distance(to: home) >= 0.99 })
        #expect(days[1]["tracks"] == nil)
        let entries = try #require(data["entries"] as? [String: Any])
        let ids = try #require(entries["id"] as? [String])
        #expect(ids.count == 4)

        let photo = String(decoding: try server.request("/photos/\(ids[0])").body, as: UTF8.self)
        #expect(photo.contains("href=\"/trips/2024-07-10\">Trip: Tuscany, Italy ›</a>"))
        let homeID = try #require(try homePhotoID(server))
        let homePhoto = try server.request("/photos/\(homeID)")
        #expect(!String(decoding: homePhoto.body, as: UTF8.self).contains("/trips/"))

        #expect(try server.request("/trips/2024-01-01").status == 404)
        #expect(try server.request("/trips/2024-07-1x").status == 400)
        #expect(try server.request("/trips/..%2Fx").status == 400)
    }

    @Test("trips --map writes the index, the trips' pages and their photos' pages; export a trips folder")
    func writtenPages() throws {
        let out = try TemporaryFolder()
        let file = out.url.appendingPathComponent("journeys.html")
        let written = try local(["trips", "--map", file.path])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.contains("map written to \(file.path)"))
        let index = try String(contentsOf: file, encoding: .utf8)
        #expect(index.contains("href=\"journeys_files/trips/2024-07-10.html\""))
        let trip = try String(
            contentsOf: out.url.appendingPathComponent("journeys_files/trips/2024-07-10.html"), encoding: .utf8)
        #expect(trip.contains("<h1>Tuscany, Italy</h1>"))
        #expect(trip.contains("href=\"../../journeys.html\""))
        let data = try #require(Self.pageData(trip))
        let ids = try #require((data["entries"] as? [String: Any])?["id"] as? [String])
        let photo = try String(
            contentsOf: out.url.appendingPathComponent("journeys_files/photos/\(ids[0]).html"), encoding: .utf8)
        #expect(photo.contains("journeys_files/trips/2024-07-10.html\">Trip: Tuscany, Italy ›</a>"))

        let site = out.url.appendingPathComponent("site")
        let exported = try local(["export", "--out", site.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let tripsIndex = try String(contentsOf: site.appendingPathComponent("trips/index.html"), encoding: .utf8)
        #expect(tripsIndex.contains("trips/2024-12-31.html\""))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("trips/2024-07-10.html").path))
        let exportedPhoto = try String(
            contentsOf: site.appendingPathComponent("photos/\(ids[0]).html"), encoding: .utf8)
        #expect(exportedPhoto.contains("trips/2024-07-10.html\">Trip: Tuscany, Italy ›</a>"))
    }

    @Test("serve: /visited lists the countries, regions and towns of the photos the viewer may see")
    func visitedPage() throws {
        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        defer { server.stop() }
        let answer = try server.request("/visited")
        #expect(answer.status == 200)
        let page = String(decoding: answer.body, as: UTF8.self)
        #expect(page.contains("<h1>Places you have been</h1>"))
        for name in ["Italy", "Tuscany", "Slovenia", "Austria"] { #expect(page.contains(">\(name)</a>"), "\(name)") }
        // Florence twice on 10 July, Arezzo on the 12th; the photo without a location counts nowhere.
        #expect(
            page.contains(">Italy</a> <span class=\"visited-summary\">3 photos · 2 days · 2024-07-10 – 2024-07-12"))
        // Photos made private leave the public's page at once.
        #expect(try local(["visibility", "--all", "private"]).status == 0)
        let hidden = String(decoding: try server.request("/visited").body, as: UTF8.self)
        #expect(hidden.contains("<h1>Places you have been</h1>"))
        #expect(!hidden.contains("Italy"))
    }

    /// The id of a photo taken at home, from the top place's page.
    func homePhotoID(_ server: ServeProcess) throws -> String? {
        let top = String(decoding: try server.request("/").body, as: UTF8.self)
        let data = try #require(Self.pageData(top))
        let entries = try #require(data["entries"] as? [String: Any])
        let titles = (entries["id"] as? [String]) ?? []
        guard let first = titles.first else { return nil }
        let place = String(decoding: try server.request("/places/\(first)").body, as: UTF8.self)
        let placeEntries = try #require(Self.pageData(place)?["entries"] as? [String: Any])
        return (placeEntries["id"] as? [String])?.first
    }

    /// The JSON a page embeds for its scripts.
    static func pageData(_ page: String) -> [String: Any]? {
        let marker = "<script type=\"application/json\" id=\"photomap-annotations\">"
        guard let start = page.range(of: marker),
            let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex)
        else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(page[start.upperBound..<end.lowerBound].utf8))
            as? [String: Any]
    }
}
