// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// `photomap fences` run as a user would: two photos taken at home, one at the castle of the same town,
/// two far away, and a GPS track walking from home to the castle; a fence around home, then every output
/// others can see searched for any number inside it, and every track it draws for a point within 50 m of it.
@Suite("Geofences end to end", .serialized)
struct FencesEndToEndTests {
    let photos: TemporaryFolder
    let cache: TemporaryFolder
    let out: TemporaryFolder

    /// The fence: 300 m around a home in Ljubljana (the issue's example).
    static let home = (latitude: 46.0569, longitude: 14.5058, radius: 300.0)
    /// Latitudes within the fence: no number of an output may fall in this band (the castle and the town's
    /// centre lie south of it).
    static let band = (home.latitude - 0.0028)...(home.latitude + 0.0028)

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        out = try TemporaryFolder()
        let image = ExifJPEG.quarters(width: 320, height: 200)
        for (name, latitude, longitude, title) in [
            ("home-1", 46.0570, 14.5060, "Kitchen"), ("home-2", 46.0565, 14.5052, "Garden"),
            ("castle", 46.0490, 14.5086, "Castle"), ("arezzo", 43.4633, 11.8796, "Piazza Grande"),
            ("sydney", -33.8688, 151.2093, "Opera House"),
        ] {
            var exif = ExifBlock()
            exif.ifd0 = [exif.ascii(0x010E, title)]
            exif.exif = [exif.ascii(0x9003, "2024:05:01 17:48:17")]
            exif.setPosition(latitude: latitude, longitude: longitude)
            try ExifJPEG.make(image, exif: exif).write(to: photos.url.appendingPathComponent("\(name).jpg"))
        }
    }

    func photomap(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path] + arguments)
    }

    func local(_ arguments: [String]) throws -> PhotomapBinary.Result {
        try photomap(["--source", "local"] + arguments)
    }

    /// The numbers of `text` with at least two decimals that lie in the fence's band of latitude.
    static func leaks(_ text: String) -> [String] {
        let pattern = try? NSRegularExpression(pattern: #"-?\d+\.\d{2,}"#)
        let range = NSRange(text.startIndex..., in: text)
        return (pattern?.matches(in: text, range: range) ?? []).compactMap { match in
            guard let found = Range(match.range, in: text), let number = Double(text[found]),
                band.contains(number)
            else { return nil }
            return String(text[found])
        }
    }

    /// Every file of a folder as text, by path.
    static func files(in folder: URL) -> [(path: String, data: Data)] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).compactMap { file in
            (try? Data(contentsOf: file)).map { (file.path, $0) }
        }
    }

    /// A walk from home to the castle (a point every ~45 m), and a segment of two points that passes
    /// within 10 m of home's centre: what `import --gpx` keeps for maps to draw.
    static let walk: String = {
        var points = (0...20).map { step in
            let fraction = Double(step) / 20
            return (46.0569 - 0.0079 * fraction, 14.5058 + 0.0028 * fraction)
        }.enumerated().map { minute, point in
            "<trkpt lat=\"\(point.0)\" lon=\"\(point.1)\"><time>2024-05-01T15:\(10 + minute):00Z</time></trkpt>"
        }.joined(separator: "\n")
        points += "</trkseg><trkseg>"
        points += #"<trkpt lat="46.0610" lon="14.5000"><time>2024-05-01T16:00:00Z</time></trkpt>"#
        points += #"<trkpt lat="46.0530" lon="14.5110"><time>2024-05-01T16:10:00Z</time></trkpt>"#
        return """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><trkseg>\(points)</trkseg></trk></gpx>
            """
    }()

    /// Imports the photos with the walk's track.
    func importWithWalk(_ options: [String] = []) throws -> PhotomapBinary.Result {
        let walk = out.url.appendingPathComponent("walk.gpx")
        try Data(Self.walk.utf8).write(to: walk)
        return try photomap(options + ["import", photos.url.path, "--visibility", "public", "--gpx", walk.path])
    }

    /// Every point of the tracks `text`'s pages draw (`"tracks":{"lines":[[lat, lon, Δlat, Δlon, …]],
    /// "scale":S}`, whole numbers of 1/S degree).
    static func trackPoints(_ text: String) throws -> [Coordinate] {
        let pattern = try NSRegularExpression(pattern: #""tracks":\{"lines":(\[[-0-9,\[\]]*\]),"scale":(\d+)\}"#)
        var points: [Coordinate] = []
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let lines = try #require(Range(match.range(at: 1), in: text).map { text[$0] })
            let scale = try #require(Range(match.range(at: 2), in: text).flatMap { Double(text[$0]) })
            let numbers = try #require(try JSONSerialization.jsonObject(with: Data(lines.utf8)) as? [[Int]])
            for line in numbers {
                var (latitude, longitude) = (0, 0)
                for pair in stride(from: 0, to: line.count - 1, by: 2) {
                    (latitude, longitude) = (latitude + line[pair], longitude + line[pair + 1])
                    points.append(
                        try #require(
                            Coordinate(latitude: Double(latitude) / scale, longitude: Double(longitude) / scale)))
                }
            }
        }
        return points
    }

    /// The track points `text` draws within the fence or 50 m of it, and how many points it draws in all.
    static func trackLeaks(_ text: String) throws -> (near: [Coordinate], drawn: Int) {
        let centre = try #require(Coordinate(latitude: home.latitude, longitude: home.longitude))
        let points = try trackPoints(text)
        return (points.filter { $0.distance(to: centre) * 1000 < home.radius + 50 }, points.count)
    }

    func addHome() throws -> PhotomapBinary.Result {
        try photomap([
            "fences", "add", "home", "--near", "\(Self.home.latitude),\(Self.home.longitude)", "--radius", "300",
        ])
    }

    func jsonArray(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test("fences add, list and remove; bad input is a usage error that changes nothing")
    func addListRemove() throws {
        #expect(try photomap(["import", photos.url.path, "--visibility", "public"]).status == 0)
        let added = try addHome()
        #expect(added.status == 0, "\(added.stderr)")
        #expect(
            added.stderr.contains("fence 'home' (300 m): 2 photos inside are shown without a location"),
            "\(added.stderr)")
        for bad in [
            ["fences", "add", "home", "--near", "46.0569,14.5058", "--radius", "300"],  // a duplicate name
            ["fences", "add", "small", "--near", "46.0569,14.5058", "--radius", "20"],
            ["fences", "add", "huge", "--near", "46.0569,14.5058", "--radius", "20000"],
            ["fences", "add", "far", "--near", "Qqqxyzzy Nowhere", "--radius", "300"],
            ["fences", "add", "off", "--near", "95,14", "--radius", "300"],
            ["fences", "add", "--near", "46,14", "--radius", "300"],
            ["fences", "add", "nowhere", "--radius", "300"],
        ] {
            let refused = try photomap(bad)
            #expect(refused.status == 2, "\(bad): \(refused.status) \(refused.stderr)")
            #expect(refused.stderr.hasPrefix("photomap: error: "), "\(refused.stderr)")
        }
        #expect(try photomap(["fences", "add", "home", "--near", "1,1", "--radius", "300"]).stderr.contains("'home'"))
        let listed = try jsonArray(try photomap(["fences", "list", "--json"]).stdout)
        #expect(listed.count == 1)
        #expect(listed.first?["name"] as? String == "home" && listed.first?["photos"] as? Int == 2)
        #expect(listed.first?["radius"] as? Double == 300)
        #expect(try photomap(["fences", "list"]).stdout.contains("home"))
        // Near a place by name: Arezzo's centre, 1 km.
        let named = try photomap(["fences", "add", "arezzo", "--near", "Arezzo", "--radius", "1000"])
        #expect(named.status == 0 && named.stderr.contains("1 photo inside is"), "\(named.stderr)")
        #expect(try photomap(["fences", "remove", "arezzo"]).status == 0)
        #expect(try photomap(["fences", "remove", "arezzo"]).status == 1)

        let unlocated = try jsonArray(try local(["photos", "--place", "unlocated", "--json"]).stdout)
        #expect(Set(unlocated.compactMap { $0["title"] as? String }) == ["Kitchen", "Garden"])
        #expect(unlocated.allSatisfy { $0["latitude"] is NSNull && $0["longitude"] is NSNull })
        // The owner's own view.
        let places = try jsonArray(try local(["places", "--json", "--show-fenced"]).stdout)
        #expect(places.first { $0["title"] as? String == "Ljubljana" }?["photoCount"] as? Int == 3)
        #expect(!places.contains { $0["id"] as? String == "unlocated" })
        let atHome = try jsonArray(try local(["photos", "--place", "3196359", "--json", "--show-fenced"]).stdout)
        #expect(atHome.contains { $0["title"] as? String == "Kitchen" && $0["latitude"] as? Double == 46.057 })
        #expect(
            try local(["places", "--show-fenced", "--map", out.url.appendingPathComponent("m.html").path]).status == 2)

        let removed = try photomap(["fences", "remove", "home"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try local(["photos", "--place", "unlocated", "--json"]).status == 1)
        let back = try jsonArray(try local(["places", "--json"]).stdout)
        #expect(back.first { $0["title"] as? String == "Ljubljana" }?["photoCount"] as? Int == 3)
        #expect(try jsonArray(try photomap(["fences", "list", "--json"]).stdout).isEmpty)
    }

    @Test(
        "no number inside the fence in any format, map page, search, find or export (re-exported over one that showed them)"
    )
    func nothingLeaks() throws {
        #expect(try importWithWalk().status == 0)
        let site = out.url.appendingPathComponent("site")
        // The owner's site draws the walk's track (the public one draws none: a track is where the owner went).
        let before = try local(["export", "--out", site.path, "--audience", "owner"])
        #expect(before.status == 0, "\(before.stderr)")
        let shown = Self.files(in: site).map { String(decoding: $0.data, as: UTF8.self) }.joined()
        let nearHome = try Self.trackLeaks(shown).near
        #expect(!Self.leaks(shown).isEmpty && !nearHome.isEmpty)
        #expect(try addHome().status == 0)

        let placeIDs = try jsonArray(try local(["places", "--json"]).stdout).compactMap { $0["id"] as? String }
        #expect(placeIDs.contains("unlocated"))
        for format in ["table", "json", "csv", "geojson", "kml", "gpx"] {
            var outputs = [try local(["places", "--format", format])]
            for id in placeIDs { outputs.append(try local(["photos", "--place", id, "--format", format])) }
            outputs.append(
                try local(["search", "kitchen", "garden", "castle", "--near", "Ljubljana", "--format", format]))
            outputs.append(try local(["find", "Kitchen", "--near", "46.05,14.5", "--format", format]))
            for output in outputs {
                #expect(Self.leaks(output.stdout).isEmpty, "\(format): \(Self.leaks(output.stdout))")
            }
        }
        let maps = out.url.appendingPathComponent("maps")
        try FileManager.default.createDirectory(at: maps, withIntermediateDirectories: true)
        #expect(try local(["places", "--map", maps.appendingPathComponent("places.html").path]).status == 0)
        for id in placeIDs {
            #expect(
                try local(["photos", "--place", id, "--map", maps.appendingPathComponent("\(id).html").path]).status
                    == 0)
        }
        let again = try local(["export", "--out", site.path])
        #expect(again.status == 0, "\(again.stderr)")
        for folder in [maps, site] {
            let files = Self.files(in: folder)
            #expect(files.count > 5)
            var drawn = 0
            for (path, data) in files {
                #expect(Self.leaks(String(decoding: data, as: UTF8.self)).isEmpty, "\(path)")
                // The walk's track is drawn only from 50 m outside the fence.
                let tracks = try Self.trackLeaks(String(decoding: data, as: UTF8.self))
                #expect(tracks.near.isEmpty, "\(path): \(tracks.near)")
                drawn += tracks.drawn
                // Images are made from the pixels: no EXIF (and so no GPS) rides along.
                if path.hasSuffix(".jpg") { #expect(data.range(of: Data("Exif".utf8)) == nil, "\(path)") }
            }
            // The command line's maps are the owner's, the track drawn; the public site draws none.
            #expect(folder == maps ? drawn > 0 : drawn == 0, "\(folder.path): \(drawn) track points drawn")
        }
        let unlocatedPage = try String(
            contentsOf: site.appendingPathComponent("places/unlocated.html"), encoding: .utf8)
        #expect(unlocatedPage.contains("Kitchen") && unlocatedPage.contains("Garden"))
        let fenced = try jsonArray(try local(["photos", "--place", "unlocated", "--json"]).stdout)
        #expect(fenced.count == 2)
        for photo in fenced {
            let page = try String(
                contentsOf: site.appendingPathComponent("photos/\(photo["id"] as? String ?? "").html"), encoding: .utf8)
            #expect(!page.contains("Ljubljana") && !page.contains("Slovenia"))
        }
    }

    @Test(
        "serve: pages, every /api answer and recents show anyone no number inside the fence; the owner all, with the tracks"
    )
    func serveHidesThem() throws {
        #expect(try importWithWalk().status == 0)
        let home = try jsonArray(try local(["photos", "--place", "3196359", "--json"]).stdout)
        let kitchen = try #require(home.first { $0["title"] as? String == "Kitchen" }?["id"] as? String)
        // Listed and viewed before the fence, by a server that keeps running: recents keep the record as it
        // was then, and the server what it listed.
        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        for path in ["/", "/places/3196359", "/photos/\(kitchen)"] {
            #expect(try server.request(path).status == 200)
        }
        let page = String(decoding: try server.request("/places/3196359").body, as: UTF8.self)
        let drawn = try Self.trackLeaks(page).drawn
        #expect(!Self.leaks(page).isEmpty && drawn == 0, "the tracks are the owner's")
        // The owner, signed in, sees the tracks, and (a fence hides from everyone but them) all of them.
        let password = "correct horse battery"
        let added = try PhotomapBinary.addUser(
            "olga", role: "owner", password: password, arguments: ["--cache", cache.url.path])
        #expect(added.status == 0, "\(added.stderr)")
        let owner = try #require(try server.signIn("olga", password: password))
        let owners = {
            String(decoding: try server.request("/places/3196359", headers: ["Cookie": owner]).body, as: UTF8.self)
        }
        #expect(!(try Self.trackLeaks(try owners())).near.isEmpty)
        #expect(try addHome().status == 0)
        Thread.sleep(forTimeInterval: 1.1)
        for path in [
            "/", "/places/unlocated", "/places/3196359", "/photos/\(kitchen)", "/recent",
            "/api/search?q=kitchen&lat=46.05&lon=14.5&radius=20", "/api/search?q=garden",
            "/api/find?q=Kitchen", "/api/find?q=Garden&lat=46.05&lon=14.5",
        ] {
            let answer = try server.request(path)
            #expect(answer.status == 200, "\(path): \(answer.status)")
            let body = String(decoding: answer.body, as: UTF8.self)
            if path == "/places/unlocated" { #expect(body.contains("Kitchen") && body.contains("Garden")) }
            #expect(Self.leaks(body).isEmpty, "\(path): \(Self.leaks(body))")
            #expect(try Self.trackLeaks(body).drawn == 0, "\(path): the tracks are the owner's")
        }
        let fenced = try owners()
        let nearHome = try Self.trackLeaks(fenced).near
        #expect(!Self.leaks(fenced).isEmpty && !nearHome.isEmpty, "the owner's view")
        server.stop()
        let recent = try local(["recent", "--json"])
        #expect(Self.leaks(recent.stdout).isEmpty && recent.stdout.contains("Kitchen"), "\(recent.stdout)")
    }

    @Test("with --database the fences are the database's: every machine's listings, pages and answers honour them")
    func sharedFences() throws {
        let database = try TestDatabase().leastPrivilegedURL()
        #expect(try importWithWalk(["--database", database]).status == 0)
        let added = try photomap([
            "--database", database, "fences", "add", "home", "--near", "46.0569,14.5058", "--radius", "300",
        ])
        #expect(added.status == 0 && added.stderr.contains("2 photos inside"), "\(added.stderr)")
        let duplicate = try photomap([
            "--database", database, "fences", "add", "home", "--near", "1,1", "--radius", "300",
        ])
        #expect(duplicate.status == 2, "\(duplicate.stderr)")
        // Another machine: its own cache folder, the same database.
        let other = try TemporaryFolder()
        func elsewhere(_ arguments: [String]) throws -> PhotomapBinary.Result {
            try PhotomapBinary.run(
                ["--cache", other.url.path, "--database", database, "--source", "local"] + arguments)
        }
        let listed = try jsonArray(try elsewhere(["fences", "list", "--json"]).stdout)
        #expect(listed.first?["photos"] as? Int == 2)
        let unlocated = try jsonArray(try elsewhere(["photos", "--place", "unlocated", "--json"]).stdout)
        #expect(Set(unlocated.compactMap { $0["title"] as? String }) == ["Kitchen", "Garden"])
        for format in ["json", "geojson", "kml", "csv"] {
            for arguments in [
                ["places"], ["photos", "--place", "3196359"], ["photos", "--place", "unlocated"],
                ["search", "kitchen", "garden", "castle", "--near", "46.05,14.5"],
            ] {
                let output = try elsewhere(arguments + ["--format", format])
                #expect(output.status == 0, "\(arguments): \(output.stderr)")
                #expect(Self.leaks(output.stdout).isEmpty, "\(arguments) \(format): \(Self.leaks(output.stdout))")
            }
        }
        let places = try jsonArray(try elsewhere(["places", "--json", "--show-fenced"]).stdout)
        #expect(places.first { $0["title"] as? String == "Ljubljana" }?["photoCount"] as? Int == 3)
        let server = try ServeProcess(
            ["--cache", other.url.path, "--database", database, "--source", "local"], environment: [:])
        for path in ["/", "/places/unlocated", "/places/3196359", "/api/search?q=kitchen&lat=46.05&lon=14.5&radius=20"]
        {
            let answer = try server.request(path)
            #expect(answer.status == 200, "\(path): \(answer.status)")
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect(Self.leaks(body).isEmpty, "\(path)")
            #expect(try Self.trackLeaks(body).drawn == 0, "\(path): the tracks are the owner's")
        }
        server.stop()
        #expect(try elsewhere(["fences", "remove", "home"]).status == 0)
        #expect(try elsewhere(["photos", "--place", "unlocated", "--json"]).status == 1)
    }
}
