import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// `photomap visited` in each format, and the page of the places you have been served and exported, on a
/// small imported catalog: two days in Ljubljana, Florence twice and Arezzo in Tuscany with a photo
/// without a location between, New Year's Eve in Vienna.
@Suite("Visited end to end", .serialized)
struct VisitedEndToEndTests {
    let photos: TemporaryFolder
    let cache: TemporaryFolder

    /// Name, local time taken, its offset, and where (nil: no location).
    static let taken: [(String, String, String?, (Double, Double)?)] = [
        ("ljubljana-1", "2024:03:01 10:00:00", "+01:00", (46.0569, 14.5058)),
        ("ljubljana-2", "2024:03:02 10:00:00", "+01:00", (46.0520, 14.5100)),
        ("florence-1", "2024:07:10 09:00:00", "+02:00", (43.7696, 11.2558)),
        ("florence-2", "2024:07:10 18:00:00", "+02:00", (43.7731, 11.2560)),
        ("lost", "2024:07:11 12:00:00", "+02:00", nil),
        ("arezzo", "2024:07:12 12:00:00", "+02:00", (43.4633, 11.8796)),
        ("vienna", "2024:12:31 23:30:00", "+01:00", (48.2082, 16.3738)),
    ]

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        try ExifJPEG.writeTaken(Self.taken, in: photos.url)
        let imported = try PhotomapBinary.run([
            "--cache", cache.url.path, "import", photos.url.path, "--visibility", "public",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    func local(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path, "--source", "local"] + arguments)
    }

    /// The countries `visited --format json` gives.
    func countries() throws -> [[String: Any]] {
        let json = try local(["visited", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    }

    @Test("the table and JSON: countries, regions, towns with photos, days, first and last visit and cover")
    func tableAndJSON() throws {
        let table = try local(["visited"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.split(separator: " ") == ["PLACE", "PHOTOS", "DAYS", "FIRST", "LAST", "COVER"])
        #expect(lines.last == "3 countries")
        let italy = try #require(lines.first { $0.hasPrefix("Italy ") })
        #expect(italy.split(separator: " ").prefix(5) == ["Italy", "3", "2", "2024-07-10", "2024-07-12"])
        #expect(lines.contains { $0.hasPrefix("  Tuscany ") } && lines.contains { $0.hasPrefix("    Arezzo ") })

        let countries = try countries()
        #expect(countries.map { $0["name"] as? String } == ["Italy", "Slovenia", "Austria"])
        let first = try #require(countries.first)
        #expect(first["photos"] as? Int == 3 && first["days"] as? Int == 2)
        #expect(first["first"] as? String == "2024-07-10" && first["last"] as? String == "2024-07-12")
        let tuscany = try #require((first["regions"] as? [[String: Any]])?.first)
        #expect(tuscany["name"] as? String == "Tuscany")
        let towns = try #require(tuscany["towns"] as? [[String: Any]])
        #expect(towns.map { $0["name"] as? String } == ["Florence", "Arezzo"])
        // The cover is the last photo taken: Arezzo's for the town, its region and its country.
        let cover = try #require(towns.last?["cover"] as? String)
        #expect(cover.hasPrefix("local-"))
        #expect(tuscany["cover"] as? String == cover && first["cover"] as? String == cover)
        #expect(towns.first?["cover"] as? String != cover)
        // Each cover is in the table too.
        #expect(italy.hasSuffix(cover))
    }

    @Test("CSV: a row per country, region and town with its cover; --output names the format by extension")
    func csv() throws {
        let csv = try local(["visited", "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.map {
            $0.components(separatedBy: ",")
        }
        #expect(rows.first == ["country", "region", "town", "photos", "days", "first", "last", "cover"])
        let cover = try #require(try countries().first?["cover"] as? String)
        #expect(rows.contains(["Italy", "", "", "3", "2", "2024-07-10", "2024-07-12", cover]))
        #expect(rows.contains(["Italy", "Tuscany", "Arezzo", "1", "1", "2024-07-12", "2024-07-12", cover]))
        #expect(rows.dropFirst().allSatisfy { $0.count == 8 })

        let file = cache.url.appendingPathComponent("visited.csv")
        let written = try local(["visited", "--output", file.path])
        #expect(written.status == 0 && written.stdout.isEmpty && written.stderr.contains("written to"))
        #expect(try String(contentsOf: file, encoding: .utf8) == csv.stdout)
        let wrong = try local(["visited", "--output", cache.url.appendingPathComponent("visited.kml").path])
        #expect(wrong.status == 2 && wrong.stderr.contains(".geojson"), "\(wrong.stderr)")
        let unknown = try local(["visited", "--format", "kml"])
        #expect(unknown.status == 2, "\(unknown.stderr)")
    }

    @Test("GeoJSON: each country and its regions with their outlines, holding their photos and not others'")
    func geojson() throws {
        let file = cache.url.appendingPathComponent("visited.geojson")
        let written = try local(["visited", "--output", file.path])
        #expect(written.status == 0, "\(written.stderr)")
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        let features = try #require(collection["features"] as? [[String: Any]])
        let properties = features.compactMap { $0["properties"] as? [String: Any] }
        #expect(properties.first?["level"] as? String == "country" && properties.first?["name"] as? String == "Italy")
        #expect(properties.first?["photos"] as? Int == 3 && properties.first?["first"] as? String == "2024-07-10")
        func feature(_ name: String) throws -> [[[[Double]]]] {
            let found = try #require(
                features.first { ($0["properties"] as? [String: Any])?["name"] as? String == name })
            let geometry = try #require(found["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "MultiPolygon")
            return try #require(geometry["coordinates"] as? [[[[Double]]]])
        }
        let tuscany = try feature("Tuscany")
        #expect(
            (features.first { ($0["properties"] as? [String: Any])?["name"] as? String == "Tuscany" }?[
                "properties"] as? [String: Any])?["country"] as? String == "Italy")
        let (florence, arezzo, ljubljana, vienna) = (
            (11.2558, 43.7696), (11.8796, 43.4633), (14.5058, 46.0569), (16.3738, 48.2082)
        )
        #expect(
            Self.contains(tuscany, florence) && Self.contains(tuscany, arezzo) && !Self.contains(tuscany, ljubljana))
        let italy = try feature("Italy")
        #expect(Self.contains(italy, florence) && !Self.contains(italy, vienna))
        let (slovenia, austria) = (try feature("Slovenia"), try feature("Austria"))
        #expect(Self.contains(slovenia, ljubljana) && Self.contains(austria, vienna))
        // RFC 7946: closed rings, outer ones counter-clockwise, holes clockwise.
        for polygon in italy + tuscany {
            for (index, ring) in polygon.enumerated() {
                #expect(ring.count >= 4 && ring.first == ring.last)
                #expect((Self.twiceArea(ring) > 0) == (index == 0))
            }
        }
    }

    @Test("/visited served and export's visited.html: the viewer's places only, a map of them, fences kept")
    func pagesFollowAudiencesAndFences() throws {
        let countries = try countries()
        let vienna = try #require(countries.last?["cover"] as? String)
        #expect(try local(["visibility", vienna, "private"]).status == 0)
        let fence = try local(["fences", "add", "florence", "--near", "43.7713,11.2559", "--radius", "2000"])
        #expect(fence.status == 0, "\(fence.stderr)")
        // The owner's view at the command line: everything, where it was taken.
        let owners = try local(["visited"]).stdout
        #expect(owners.contains("Austria") && owners.contains("Florence"))

        let site = cache.url.appendingPathComponent("site")
        let exported = try local(["export", "--out", site.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let file = try String(contentsOf: site.appendingPathComponent("visited.html"), encoding: .utf8)
        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        defer { server.stop() }
        let answer = try server.request("/visited")
        #expect(answer.status == 200)
        let served = String(decoding: answer.body, as: UTF8.self)
        for page in [file, served] {
            #expect(page.contains("<h1>Places you have been</h1>"))
            // Florence's photos are fenced: Italy is Arezzo's alone; Vienna's photo is private.
            #expect(page.contains(">Italy</span> <span class=\"visited-summary\">1 photo · 1 day · 2024-07-12"))
            #expect(page.contains("Tuscany, Italy: 1 photo") && page.contains("Slovenia: 2 photos"))
            #expect(!page.contains("Austria") && !page.contains("Florence") && !page.contains(vienna))
            #expect(page.contains("id=\"photomap-visited\"") && page.contains("photomap-visited.js"))
            #expect(page.contains("class=\"visited-legend\""))
        }
        // Their links: the town's photos and the cover's page, each where that page is.
        #expect(file.contains("href=\"places/") && file.contains("href=\"photos/local-"))
        #expect(served.contains("href=\"/places/") && served.contains("href=\"/photos/local-"))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("assets/photomap-visited.js").path))
    }

    /// Whether `point` (longitude, latitude) lies in a MultiPolygon, its rings even-odd.
    static func contains(_ polygons: [[[[Double]]]], _ point: (Double, Double)) -> Bool {
        var inside = false
        for ring in polygons.joined() {
            for index in 1..<ring.count {
                let (a, b) = (ring[index - 1], ring[index])
                guard (a[1] > point.1) != (b[1] > point.1) else { continue }
                if point.0 < a[0] + (point.1 - a[1]) / (b[1] - a[1]) * (b[0] - a[0]) { inside.toggle() }
            }
        }
        return inside
    }

    /// Twice a ring's signed area: positive when it runs counter-clockwise.
    static func twiceArea(_ ring: [[Double]]) -> Double {
        var sum = 0.0
        for index in 1..<ring.count {
            let (a, b) = (ring[index - 1], ring[index])
            sum += a[0] * b[1] - b[0] * a[1]
        }
        return sum
    }
}
