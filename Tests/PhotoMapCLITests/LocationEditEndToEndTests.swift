// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// `POST /api/photos/locations` over HTTP against `photomap serve --sidecars write`: the owner, signed in
/// through /login, moves and clears photos (the catalog, the photo's page and the sidecar, read by
/// exiftool, follow); an undo puts back what the server recorded, the source included; every other
/// request is refused and changes nothing.
@Suite("location edits over HTTP end to end", .serialized)
struct LocationEditEndToEndTests {
    static let password = "correct horse battery staple"

    let photos: TemporaryFolder
    let cache: TemporaryFolder

    init() throws {
        photos = try TemporaryFolder()
        cache = try TemporaryFolder()
        try ExifJPEG.writeShots(
            [
                ("own", "08:20", (46.0569, 14.5058)), ("bare", "08:30", nil), ("third", "08:40", nil),
                ("tagged", "08:50", nil),
            ], day: "2024:07:12", in: photos.url)
        // Another tool's sidecars: a rating beside the photo with its own GPS, and a location for one without.
        try Self.packet(#"xmp:Rating="4""#).write(to: photos.url.appendingPathComponent("own.jpg.xmp"))
        try Self.packet(#"exif:GPSLatitude="46,21.75N" exif:GPSLongitude="14,5.616E""#)
            .write(to: photos.url.appendingPathComponent("tagged.jpg.xmp"))
    }

    /// An XMP packet whose one description has `attributes`.
    static func packet(_ attributes: String) -> Data {
        Data(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
             \(attributes)/></rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    /// Runs `photomap --cache … arguments` with `input` on its standard input.
    func photomap(_ arguments: [String], input: String = "") throws -> Int32 {
        let process = Process()
        process.executableURL = PhotomapBinary.url
        process.arguments = ["--cache", cache.url.path] + arguments
        process.environment = PhotomapBinary.environment([:])
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit(within: 300, "photomap \(arguments.joined(separator: " "))")
        return process.terminationStatus
    }

    /// The catalog's records by title, as the owner sees them.
    func records() throws -> [String: Photo] {
        let catalog = try LocalCatalog(file: LocalCatalog.file(in: cache.url), readOnly: true)
        catalog.showsFenced = true
        catalog.audiences = Set(Audience.allCases)
        return Dictionary(uniqueKeysWithValues: try catalog.allPhotos().map { ($0.title, $0) })
    }

    func version() throws -> Int {
        try LocalCatalog(file: LocalCatalog.file(in: cache.url), readOnly: true).version()
    }

    func sidecar(_ title: String) -> String { photos.url.appendingPathComponent("\(title).jpg.xmp").path }

    @Test("the owner moves, copies and clears locations; the catalog, the page and the sidecar follow")
    func ownerEdits() throws {
        let server = try setUp()
        defer { server.serve.stop() }
        let ids = try records().mapValues(\.id)
        let bare = try #require(ids["bare"]), third = try #require(ids["third"]), own = try #require(ids["own"])
        let owner = try server.signIn("owner")

        let moved = try server.post(
            #"{"photos": ["\#(bare)", "\#(third)"], "latitude": 46.3625, "longitude": 14.0936}"#, as: owner)
        #expect(moved.status == 200, "\(moved.text)")
        let answer = try #require(try JSONSerialization.jsonObject(with: moved.body) as? [String: Any])
        let rows = try #require(answer["photos"] as? [[String: Any]])
        #expect(rows.compactMap { $0["id"] as? String } == [bare, third])
        #expect(rows.allSatisfy { $0["locationSource"] as? String == "manual" && $0["latitude"] as? Double == 46.3625 })
        #expect(answer["changed"] as? Int == 2 && answer["sidecarsWritten"] as? Int == 2, "\(moved.text)")
        let at = Coordinate(latitude: 46.3625, longitude: 14.0936)
        #expect(try records()["bare"]?.coordinate == at && records()["bare"]?.locationSource == .manual)
        #expect(try records()["third"]?.coordinate == at)
        if Exiftool.installed {
            let read = try #require(try Exiftool.position(ofSidecar: sidecar("bare")))
            #expect(abs(read.0 - 46.3625) < 1e-6 && abs(read.1 - 14.0936) < 1e-6, "\(read)")
        } else {
            Issue.record("exiftool is not installed (Debian libimage-exiftool-perl): scripts/install-deps installs it")
        }
        // The photo's page follows within a second or two (serve reads the catalog's version at most once a second).
        var page = ""
        for _ in 0..<40 where !page.contains("46.362500, 14.093600") {
            page = String(decoding: try server.serve.request("/photos/\(bare)").body, as: UTF8.self)
            if !page.contains("46.362500, 14.093600") { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(page.contains("46.362500, 14.093600") && page.contains("location set by hand"))

        let copied = try server.post(#"{"photos": ["\#(bare)"], "like": "\#(own)"}"#, as: owner)
        #expect(copied.status == 200, "\(copied.text)")
        #expect(try records()["bare"]?.coordinate == records()["own"]?.coordinate)

        let cleared = try server.post(#"{"photos": ["\#(third)"], "clear": true}"#, as: owner)
        #expect(cleared.status == 200, "\(cleared.text)")
        #expect(cleared.text.contains(#""latitude":null"#), "\(cleared.text)")
        let record = try #require(try records()["third"])
        #expect(
            record.coordinate == nil && record.locationSource == .manual && record.placeID == LocalPlace.unlocatedID)
        if Exiftool.installed {
            #expect(try Exiftool.position(ofSidecar: sidecar("third")) == nil)
        }
        // Already there: answered, nothing written.
        let settled = try version()
        let again = try server.post(#"{"photos": ["\#(third)"], "clear": true}"#, as: owner)
        #expect(again.status == 200 && again.text.contains(#""changed":0"#), "\(again.text)")
        #expect(try version() == settled)
    }

    @Test("an undo puts back each photo's location and its source, in the catalog and the sidecars")
    func manyAndUndo() throws {
        let server = try setUp()
        defer { server.serve.stop() }
        let before = try records()
        #expect(before["own"]?.locationSource == .exif && before["tagged"]?.locationSource == .sidecar)
        #expect(before["bare"]?.locationSource == nil)
        let order = try ["own", "bare", "third", "tagged"].map { try #require(before[$0]?.id) }
        let owner = try server.signIn("owner")

        let moved = try server.post(
            #"{"photos": ["\#(order.joined(separator: "\", \""))"], "latitude": -33.8568, "longitude": 151.2153}"#,
            as: owner)
        #expect(moved.status == 200, "\(moved.text)")
        let answer = try #require(try JSONSerialization.jsonObject(with: moved.body) as? [String: Any])
        let formers = try #require(answer["before"] as? [[String: Any]])
        try #require(formers.compactMap { $0["id"] as? String } == order)
        #expect(formers[0]["locationSource"] as? String == "exif" && formers[1]["locationSource"] is NSNull)
        #expect(answer["changed"] as? Int == 4)
        let edit = try #require(answer["edit"] as? String)
        #expect(
            try records().values.allSatisfy {
                $0.coordinate == Coordinate(latitude: -33.8568, longitude: 151.2153) && $0.locationSource == .manual
            })
        let ownSidecar = try String(contentsOfFile: sidecar("own"), encoding: .utf8)
        #expect(ownSidecar.contains("GPSLatitude") && ownSidecar.contains("Rating"), "\(ownSidecar)")

        // A later edit of one of them: the first cannot be undone before it.
        let later = try server.post(#"{"photos": ["\#(order[1])"], "clear": true}"#, as: owner)
        let laterEdit = try #require(
            (try JSONSerialization.jsonObject(with: later.body) as? [String: Any])?["edit"] as? String)
        let early = try server.post(#"{"undo": "\#(edit)"}"#, as: owner)
        #expect(early.status == 409 && early.text.contains(order[1]), "\(early.text)")
        #expect(try server.post(#"{"undo": "\#(laterEdit)"}"#, as: owner).status == 200)

        let undone = try server.post(#"{"undo": "\#(edit)"}"#, as: owner)
        #expect(undone.status == 200, "\(undone.text)")
        let put = try #require(try JSONSerialization.jsonObject(with: undone.body) as? [String: Any])
        #expect(put["edit"] is NSNull && put["changed"] as? Int == 4, "\(undone.text)")
        let after = try records()
        for title in ["own", "bare", "third", "tagged"] {
            let was = try #require(before[title]), now = try #require(after[title])
            #expect(now.coordinate == was.coordinate, "\(title)")
            #expect(now.locationSource == was.locationSource, "\(title): \(String(describing: now.locationSource))")
            #expect(now.placeID == was.placeID, "\(title)")
        }
        // The photo's own GPS stands again: what photomap wrote in its sidecar is gone, the rating stays.
        let restored = try String(contentsOfFile: sidecar("own"), encoding: .utf8)
        #expect(!restored.contains("GPS") && !restored.contains("LocationSource"), "\(restored)")
        #expect(restored.contains(#"Rating="4""#), "\(restored)")
        if Exiftool.installed {
            #expect(try Exiftool.position(ofSidecar: sidecar("own")) == nil)
            let tagged = try #require(try Exiftool.position(ofSidecar: sidecar("tagged")))
            #expect(abs(tagged.0 - 46.3625) < 1e-6 && abs(tagged.1 - 14.0936) < 1e-6, "\(tagged)")
        }
        // Undone once: a second undo, or another owner's, finds nothing to undo.
        let twice = try server.post(#"{"undo": "\#(edit)"}"#, as: owner)
        #expect(twice.status == 404, "\(twice.text)")
        let again = try server.post(#"{"photos": ["\#(order[0])"], "latitude": 1, "longitude": 2}"#, as: owner)
        let againEdit = try #require(
            (try JSONSerialization.jsonObject(with: again.body) as? [String: Any])?["edit"] as? String)
        let other = try server.post(#"{"undo": "\#(againEdit)"}"#, as: try server.signIn("olga"))
        #expect(other.status == 404, "\(other.text)")
        #expect(try records()["own"]?.locationSource == .manual)
    }

    @Test("every other request is refused and changes nothing: origin, token, role, method, size, body, ids")
    func refusals() throws {
        let server = try setUp()
        defer { server.serve.stop() }
        let ids = try records().mapValues(\.id)
        let bare = try #require(ids["bare"]), third = try #require(ids["third"])
        let owner = try server.signIn("owner"), friend = try server.signIn("anna")
        let anonymous = try server.visitor()
        let good = #"{"photos": ["\#(bare)"], "latitude": 1, "longitude": 2}"#
        // An edit to undo, made before the version is read: every refused undo leaves it as it is.
        let tagged = try #require(ids["tagged"])
        let made = try server.post(#"{"photos": ["\#(tagged)"], "latitude": 3, "longitude": 4}"#, as: owner)
        let edit = try #require(
            (try JSONSerialization.jsonObject(with: made.body) as? [String: Any])?["edit"] as? String)
        let undo = #"{"undo": "\#(edit)"}"#
        let before = try version()
        let unknown = "local-" + String(repeating: "0", count: 24)
        let many = (0...LocationEditing.maximumPhotos).map { "\"local-\(String(format: "%024x", $0))\"" }
        let cases: [(String, Int, RawHTTP.Answer)] = [
            ("no Origin nor Referer", 403, try server.post(good, as: owner, from: .nowhere)),
            ("another site's Origin", 403, try server.post(good, as: owner, from: .site("http://evil.example"))),
            ("no token", 403, try server.post(good, as: owner, token: "")),
            ("a wrong token", 403, try server.post(good, as: owner, token: "not-the-token")),
            ("a friend", 403, try server.post(good, as: friend)),
            ("nobody signed in", 401, try server.post(good, as: anonymous)),
            ("an undo without Origin", 403, try server.post(undo, as: owner, from: .nowhere)),
            ("an undo from another site", 403, try server.post(undo, as: owner, from: .site("http://evil.example"))),
            ("an undo without a token", 403, try server.post(undo, as: owner, token: "")),
            ("an undo by a friend", 403, try server.post(undo, as: friend)),
            ("an undo signed out", 401, try server.post(undo, as: anonymous)),
            (
                "an undo of an unknown edit", 404,
                try server.post(#"{"undo": "\#(String(repeating: "0", count: 32))"}"#, as: owner)
            ),
            ("an undo that is no edit id", 400, try server.post(#"{"undo": "../x"}"#, as: owner)),
            ("an undo with photos", 400, try server.post(#"{"undo": "\#(edit)", "photos": ["\#(bare)"]}"#, as: owner)),
            ("text, not JSON", 415, try server.post(good, as: owner, contentType: "text/plain")),
            ("malformed JSON", 400, try server.post(#"{"photos": ["#, as: owner)),
            (
                "latitude 95", 400,
                try server.post(#"{"photos": ["\#(bare)"], "latitude": 95, "longitude": 2}"#, as: owner)
            ),
            (
                "longitude -181", 400,
                try server.post(#"{"photos": ["\#(bare)"], "latitude": 1, "longitude": -181}"#, as: owner)
            ),
            (
                "a latitude in words", 400,
                try server.post(#"{"photos": ["\#(bare)"], "latitude": "north", "longitude": 2}"#, as: owner)
            ),
            (
                "latitude without longitude", 400,
                try server.post(#"{"photos": ["\#(bare)"], "latitude": 1}"#, as: owner)
            ),
            (
                "two targets", 400,
                try server.post(#"{"photos": ["\#(bare)"], "latitude": 1, "longitude": 2, "clear": true}"#, as: owner)
            ),
            ("no photos", 400, try server.post(#"{"photos": [], "clear": true}"#, as: owner)),
            (
                "too many photos", 400,
                try server.post(#"{"photos": [\#(many.joined(separator: ","))], "clear": true}"#, as: owner)
            ),
            ("a path for an id", 400, try server.post(#"{"photos": ["../../etc/passwd"], "clear": true}"#, as: owner)),
            (
                "an unknown id beside a known one", 404,
                try server.post(#"{"photos": ["\#(bare)", "\#(unknown)"], "clear": true}"#, as: owner)
            ),
            (
                "like a photo without a location", 422,
                try server.post(#"{"photos": ["\#(bare)"], "like": "\#(third)"}"#, as: owner)
            ),
            (
                "a body over 64 KB", 413,
                try server.post(#"{"photos": [], "pad": ""# + String(repeating: "x", count: 70_000) + "\"}", as: owner)
            ),
        ]
        for (name, status, answer) in cases {
            #expect(answer.status == status, "\(name): \(answer.status) \(answer.text)")
            // A body over 64 KB is refused as it arrives, before any route: a line of text says so.
            #expect(answer.text.contains(status == 413 ? "64 KB" : "\"error\""), "\(name): \(answer.text)")
        }
        let unknownCase = try #require(cases.first { $0.0 == "an unknown id beside a known one" })
        #expect(unknownCase.2.text.contains(unknown) && !unknownCase.2.text.contains(bare))
        let get = try server.exchange("GET /api/photos/locations HTTP/1.1\r\n\(server.head(owner.cookie))\r\n")
        #expect(get.status == 405 && get.headers["allow"] == "POST", "\(get.text)")
        #expect(try version() == before)
        #expect(try records()["bare"]?.coordinate == nil)
        #expect(try records()["tagged"]?.coordinate == Coordinate(latitude: 3, longitude: 4))
        #expect(!FileManager.default.fileExists(atPath: sidecar("bare")))
        // Still there to undo.
        #expect(try server.post(undo, as: owner).status == 200)
        #expect(try records()["tagged"]?.locationSource == .sidecar)
        #expect(try records()["tagged"]?.coordinate == Coordinate(latitude: 46.3625, longitude: 14.0936))
        #expect(!server.serve.stderr.contains(Self.password))
    }

    @Test("with --database: an edit through one serve is in PostgreSQL, and another serve's page shows it")
    func database() throws {
        let database = try TestDatabase()
        let url = try database.leastPrivilegedURL()
        let server = try setUp(["--database", url])
        defer { server.serve.stop() }
        let other = try ServeProcess(
            ["--cache", cache.url.path, "--database", url, "--source", "local"], environment: [:])
        defer { other.stop() }
        var catalog = PostgresLocalCatalog(pool: try database.pool())
        catalog.showsFenced = true
        catalog.audiences = Set(Audience.allCases)
        let bare = try #require(try catalog.allPhotos().first { $0.title == "bare" }?.id)
        let own = try #require(try catalog.allPhotos().first { $0.title == "own" })
        let owner = try server.signIn("owner")
        // A photo with its own GPS and one without are moved, then put back: EXIF, and nothing, again.
        let ownMoved = try server.post(
            #"{"photos": ["\#(own.id)", "\#(bare)"], "latitude": 1, "longitude": 2}"#, as: owner)
        let edit = try #require(
            (try JSONSerialization.jsonObject(with: ownMoved.body) as? [String: Any])?["edit"] as? String)
        #expect(try catalog.photo(id: own.id)?.locationSource == .manual)
        let undone = try server.post(#"{"undo": "\#(edit)"}"#, as: owner)
        #expect(undone.status == 200 && undone.text.contains(#""locationSource":"exif""#), "\(undone.text)")
        let back = try #require(try catalog.photo(id: own.id))
        #expect(back.coordinate == own.coordinate && back.locationSource == .exif && back.placeID == own.placeID)
        let bareBack = try #require(try catalog.photo(id: bare))
        #expect(
            bareBack.coordinate == nil && bareBack.locationSource == nil && bareBack.placeID == LocalPlace.unlocatedID)
        let moved = try server.post(
            #"{"photos": ["\#(bare)"], "latitude": -33.8568, "longitude": 151.2153}"#, as: owner)
        #expect(moved.status == 200, "\(moved.text)")
        let record = try #require(try catalog.photo(id: bare))
        #expect(record.coordinate == Coordinate(latitude: -33.8568, longitude: 151.2153))
        #expect(record.locationSource == .manual)
        var page = ""
        for _ in 0..<40 where !page.contains("-33.856800, 151.215300") {
            page = String(decoding: try other.request("/photos/\(bare)").body, as: UTF8.self)
            if !page.contains("-33.856800, 151.215300") { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(page.contains("-33.856800, 151.215300"), "\(page.prefix(400))")
    }

    /// Imports the photos (public), adds the owner, a second owner and a friend, and starts serve writing sidecars, with
    /// `global` options before each command (`--database URL`).
    func setUp(_ global: [String] = []) throws -> EditServer {
        #expect(try photomap(global + ["import", "--visibility", "public", photos.url.path]) == 0)
        let password = Self.password + "\n"
        let owner = ["users", "add", "owner", "--role", "owner", "--password-stdin"]
        #expect(try photomap(global + owner, input: password) == 0)
        let friend = ["users", "add", "anna", "--role", "friend", "--password-stdin"]
        #expect(try photomap(global + friend, input: password) == 0)
        let second = ["users", "add", "olga", "--role", "owner", "--password-stdin"]
        #expect(try photomap(global + second, input: password) == 0)
        let serve = try ServeProcess(
            ["--cache", cache.url.path, "--source", "local"] + global, serveArguments: ["--sidecars", "write"],
            environment: [:])
        return EditServer(serve: serve, password: Self.password)
    }
}
