// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// Flickr's audiences run as a user would: one imported photo for each visibility and each location
/// audience within it, with a title and coordinates of its own; `visibility` sets them, the command line
/// (the owner) lists everything, and what `export` writes and `serve` answers anyone is checked byte by
/// byte for what only others may see.
@Suite("Audiences end to end", .serialized)
struct AudiencesEndToEndTests {
    let photos: TemporaryFolder
    let cache: TemporaryFolder
    let out: TemporaryFolder
    /// `--database URL` when the state is PostgreSQL's (`AudiencesViewersEndToEndTests`); none: the cache
    /// folder's SQLite.
    var database: [String] = []

    /// One photo of the matrix: its audiences, title, file name and where it was taken.
    struct Sample {
        let visibility: Audience
        let location: Audience
        let latitude: Double
        let longitude: Double
        var title: String { "Kq\(Self.word(visibility))\(Self.word(location))" }
        var file: String {
            "\(visibility.rawValue)-\(location.rawValue).jpg".replacingOccurrences(of: "+", with: "and")
        }

        static func word(_ audience: Audience) -> String {
            switch audience {
            case .public: "Pub"
            case .friends: "Fri"
            case .family: "Fam"
            case .friendsAndFamily: "Faf"
            case .private: "Pri"
            }
        }
    }

    /// Each pair (visibility, location within it), near a town of its own: 0.0123° north of its centre,
    /// so that no town's own coordinate falls in a photo's band.
    static let samples: [Sample] = {
        let towns = [
            (46.0569, 14.5058), (45.8150, 15.9819), (47.0707, 15.4395), (48.2082, 16.3738), (48.1486, 17.1077),
            (47.4979, 19.0402), (50.0755, 14.4378), (48.1351, 11.5820), (47.3769, 8.5417), (45.4642, 9.1900),
            (45.7640, 4.8357), (41.3851, 2.1734), (41.1579, -8.6291), (53.3498, -6.2603),
        ]
        let pairs = Audience.allCases.flatMap { visibility in
            Audience.allCases.filter { $0.isWithin(visibility) }.map { (visibility, $0) }
        }
        return zip(pairs, towns).map { pair, town in
            Sample(visibility: pair.0, location: pair.1, latitude: town.0 + 0.0123, longitude: town.1 + 0.0123)
        }
    }()

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        out = try TemporaryFolder()
        let image = ExifJPEG.quarters(width: 160, height: 120)
        for sample in Self.samples {
            var exif = ExifBlock()
            exif.ifd0 = [exif.ascii(0x010E, sample.title)]
            exif.exif = [exif.ascii(0x9003, "2024:05:01 17:48:17")]
            exif.setPosition(latitude: sample.latitude, longitude: sample.longitude)
            try ExifJPEG.make(image, exif: exif).write(to: photos.url.appendingPathComponent(sample.file))
        }
    }

    func photomap(_ arguments: [String], environment: [String: String] = [:]) throws -> PhotomapBinary.Result {
        try PhotomapBinary.run(["--cache", cache.url.path] + database + arguments, environment: environment)
    }

    /// Imports the photos (private, the default) and gives each its audiences; returns their ids by title.
    func importMatrix() throws -> [String: String] {
        let imported = try photomap(["import", photos.url.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        var ids: [String: String] = [:]
        for place in try jsonArray(try photomap(["--source", "local", "places", "--json"]).stdout) {
            let placeID = try #require(place["id"] as? String)
            for photo in try jsonArray(
                try photomap(["--source", "local", "photos", "--place", placeID, "--json"]).stdout)
            {
                if let title = photo["title"] as? String, let id = photo["id"] as? String { ids[title] = id }
            }
        }
        #expect(ids.count == Self.samples.count, "the command line lists every photo: \(ids.keys.sorted())")
        for sample in Self.samples {
            let id = try #require(ids[sample.title])
            let set = try photomap([
                "visibility", id, sample.visibility.rawValue, "--location", sample.location.rawValue,
            ])
            #expect(set.status == 0, "\(set.stderr)")
        }
        return ids
    }

    /// `/visited/ID` of every country and region of the photos, as the command line (the owner) lists them.
    func visitedPages() throws -> [String] {
        let listed = try photomap(["--source", "local", "visited", "--format", "json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let pages = try jsonArray(listed.stdout).flatMap { country -> [String] in
            let name = country["name"] as? String ?? ""
            let regions = (country["regions"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            return ([[name]] + regions.map { [name, $0] }).map { "/visited/" + VisitedPlace.pageID($0) }
        }
        #expect(pages.count >= 20, "\(pages)")
        return pages
    }

    func jsonArray(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    /// The samples whose location `text` shows: both its latitude and its longitude among the numbers of
    /// three decimals or more, rounded to four (pages write four, photo pages six). Both are asked for: the
    /// maps' labels hold many towns' coordinates, one of which may share a sample's latitude.
    static func coordinates(in text: String) -> Set<String> {
        let pattern = try? NSRegularExpression(pattern: #"-?\d+\.\d{3,}"#)
        let range = NSRange(text.startIndex..., in: text)
        let numbers = Set(
            (pattern?.matches(in: text, range: range) ?? []).compactMap { match in
                Range(match.range, in: text).flatMap { Double(text[$0]) }.map { Int(($0 * 10_000).rounded()) }
            })
        return Set(
            samples.filter { sample in
                numbers.contains(Int((sample.latitude * 10_000).rounded()))
                    && numbers.contains(Int((sample.longitude * 10_000).rounded()))
            }.map(\.title))
    }

    @Test("import is private by default; visibility sets audiences, refuses a wider location, says what it did")
    func visibilityCommand() throws {
        let ids = try importMatrix()
        let one = try #require(ids[Self.samples[0].title])
        let wider = try photomap(["visibility", one, "friends", "--location", "public"])
        #expect(wider.status == 2 && wider.stderr.contains("wider than the visibility"), "\(wider.stderr)")
        let unknown = try photomap(["visibility", "local-" + String(repeating: "0", count: 24), "public"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no imported photo has the id"), "\(unknown.stderr)")
        #expect(try photomap(["visibility", "--all", "everyone"]).status == 2)
        #expect(try photomap(["visibility", one, "--all", "public"]).status == 2)
        let dry = try photomap(["visibility", "--all", "private", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let said = try #require(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
        #expect(said["photos"] as? Int == Self.samples.count && said["dryRun"] as? Bool == true)
        #expect((said["changed"] as? [String])?.count == Self.samples.count - 1)
        let again = try photomap(["visibility", "--all", "private", "--dry-run", "--json"])
        #expect(again.stdout == dry.stdout, "a dry run changes nothing")
        let bad = try photomap(["import", photos.url.path], environment: ["PHOTOMAP_VISIBILITY": "everyone"])
        #expect(bad.status == 2 && bad.stderr.contains("PHOTOMAP_VISIBILITY"), "\(bad.stderr)")
        let help = try photomap(["visibility", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--location") && help.stdout.contains("visibility --place"))
    }

    @Test("export writes what everyone may see unless --audience asks for more, and says so")
    func exportAudiences() throws {
        _ = try importMatrix()
        let site = out.url.appendingPathComponent("site")
        let exported = try photomap(["--source", "local", "export", "--out", site.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let text = Self.text(in: site)
        for sample in Self.samples {
            #expect(text.contains(sample.title) == (sample.visibility == .public), "\(sample.title)")
            #expect(
                Self.coordinates(in: text).contains(sample.title) == (sample.location == .public),
                "\(sample.title)")
        }
        let owners = out.url.appendingPathComponent("owner")
        let full = try photomap(["--source", "local", "export", "--out", owners.path, "--audience", "owner"])
        #expect(full.status == 0 && full.stderr.contains("exporting what only you may see"), "\(full.stderr)")
        let everything = Self.text(in: owners)
        #expect(Self.samples.allSatisfy { everything.contains($0.title) })
        let family = out.url.appendingPathComponent("family")
        #expect(
            try photomap(["--source", "local", "export", "--out", family.path, "--audience", "family"]).status == 0)
        let familyText = Self.text(in: family)
        for sample in Self.samples {
            let seen = Audience.seen(by: .family)
            #expect(familyText.contains(sample.title) == seen.contains(sample.visibility), "\(sample.title)")
            #expect(
                Self.coordinates(in: familyText).contains(sample.title)
                    == (seen.contains(sample.location) && seen.contains(sample.visibility)), "\(sample.title)")
        }
    }

    @Test(
        "serve answers anyone the public view: no id, title or coordinate of what it may not see in any answer, and 404 as for an unknown id"
    )
    func serveLeaksNothing() throws {
        let ids = try importMatrix()
        // Viewed while everything was public, by a server that keeps running: recents and the server's own
        // listings hold every photo until the audiences change.
        let everything = try photomap(["visibility", "--all", "public"])
        #expect(everything.status == 0, "\(everything.stderr)")
        let server = try ServeProcess(["--cache", cache.url.path, "--source", "local"], environment: [:])
        defer { server.stop() }
        for sample in Self.samples {
            let id = try #require(ids[sample.title])
            for path in ["/photos/\(id)", "/squares/\(id)", "/images/\(id)"] {
                #expect(try server.request(path).status == 200, "\(path)")
            }
        }
        _ = try importMatrix()
        Thread.sleep(forTimeInterval: 1.1)
        let seen = Audience.seen(by: nil)
        let unknown = "local-" + String(repeating: "0", count: 24)
        let placeIDs = try jsonArray(try photomap(["--source", "local", "places", "--json"]).stdout)
            .compactMap { $0["id"] as? String }
        // Images first: asked before any page, they must not come from what the server listed before.
        var routes = Self.samples.compactMap { ids[$0.title] }.flatMap { ["/squares/\($0)", "/images/\($0)"] }
        routes += [
            "/", "/recent", "/places/unlocated", "/api/session", "/api/search?q=Kq", "/api/find?q=Kq", "/visited",
        ]
        routes += placeIDs.map { "/places/\($0)" } + (try visitedPages())
        for sample in Self.samples {
            let id = try #require(ids[sample.title])
            routes += [
                "/photos/\(id)", "/api/search?q=\(sample.title)", "/api/find?q=\(sample.title)",
                "/api/search?q=\(sample.title)&lat=\(sample.latitude)&lon=\(sample.longitude)&radius=5",
            ]
        }
        let top = String(decoding: try server.request("/").body, as: UTF8.self)
        let loaded = Set(
            (try NSRegularExpression(pattern: #"(?:src|href)="(/assets/[^"]+)""#))
                .matches(in: top, range: NSRange(top.startIndex..., in: top))
                .compactMap { Range($0.range(at: 1), in: top).map { String(top[$0]) } })
        #expect(!loaded.isEmpty)
        routes += loaded.sorted()
        var checked: [String: Int] = [:]
        for path in routes {
            let answer = try server.request(path)
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect([200, 404].contains(answer.status), "\(path): \(answer.status)")
            for sample in Self.samples {
                let id = try #require(ids[sample.title])
                if !seen.contains(sample.visibility) {
                    #expect(!body.contains(id) && !body.contains(sample.title), "\(path) shows \(sample.title)")
                }
                if !seen.contains(sample.visibility) || !seen.contains(sample.location) {
                    #expect(!Self.coordinates(in: body).contains(sample.title), "\(path): where \(sample.title) is")
                }
            }
            checked[path] = answer.status
        }
        let unknownPage = try server.request("/photos/\(unknown)")
        for sample in Self.samples {
            let id = try #require(ids[sample.title])
            let page = try server.request("/photos/\(id)")
            let text = String(decoding: page.body, as: UTF8.self)
            if seen.contains(sample.visibility) {
                #expect(page.status == 200 && text.contains(sample.title), "\(sample.title)")
                #expect(
                    Self.coordinates(in: text).contains(sample.title) == seen.contains(sample.location),
                    "\(sample.title)")
                for route in ["/images/", "/squares/"] {
                    let image = try server.request(route + id)
                    #expect(image.status == 200 && image.body.range(of: Data("Exif".utf8)) == nil, "\(sample.title)")
                    #expect(try locationTags(image.body).isEmpty, "\(route)\(sample.title)")
                }
            } else {
                // Exactly as an unknown id: the same status and the same page, but for the id itself.
                #expect(page.status == 404, "\(sample.title)")
                #expect(
                    text.replacingOccurrences(of: id, with: unknown)
                        == String(decoding: unknownPage.body, as: UTF8.self))
                for route in ["/squares/", "/images/"] {
                    let hidden = try server.request(route + id), none = try server.request(route + unknown)
                    #expect(hidden.status == none.status && hidden.body == none.body, "\(route)\(sample.title)")
                }
            }
        }
        #expect(checked.count > 60, "\(checked.count) routes")
    }

    /// The location tags exiftool reads in an image (GPS, XMP or IPTC), one a line; none when exiftool is
    /// not installed, and then the image's bytes are asked for GPS and XMP markers instead.
    func locationTags(_ image: Data) throws -> [String] {
        let exiftool = URL(fileURLWithPath: "/usr/bin/exiftool")
        guard FileManager.default.isExecutableFile(atPath: exiftool.path) else {
            return ["GPS", "http://ns.adobe.com/xap/1.0/"].filter { image.range(of: Data($0.utf8)) != nil }
        }
        let file = out.url.appendingPathComponent("image-\(UUID().uuidString)")
        try image.write(to: file)
        let process = Process()
        process.executableURL = exiftool
        process.arguments = ["-s", "-G", "-gps:all", "-xmp:all", "-iptc:all", "-exif:all", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let watchdog = Watchdog(process.processIdentifier, limit: 120, "exiftool")
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.finish()
        return text.split(separator: "\n").map(String.init)
    }

    /// Every text file below `folder`, joined.
    static func text(in folder: URL) -> String {
        (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined()
    }
}
