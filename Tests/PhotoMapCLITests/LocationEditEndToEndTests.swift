import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// `POST /api/photos/locations` over HTTP against `photomap serve --sidecars write`: the owner, signed in
/// through /login, moves and clears photos (the catalog, the photo's page and the sidecar, read by
/// exiftool, follow); every other request is refused and changes nothing.
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
            ], day: "2024:07:12", in: photos.url)
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
        process.waitUntilExit()
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

    @Test("a many-photo edit answers each photo as it was; the page's undo POSTs put them back exactly")
    func manyAndUndo() throws {
        let server = try setUp()
        defer { server.serve.stop() }
        let before = try records()
        let order = try ["own", "bare", "third"].map { try #require(before[$0]?.id) }
        let owner = try server.signIn("owner")

        let moved = try server.post(
            #"{"photos": ["\#(order.joined(separator: "\", \""))"], "latitude": -33.8568, "longitude": 151.2153}"#,
            as: owner)
        #expect(moved.status == 200, "\(moved.text)")
        let answer = try #require(try JSONSerialization.jsonObject(with: moved.body) as? [String: Any])
        let formers = try #require(answer["before"] as? [[String: Any]])
        try #require(formers.compactMap { $0["id"] as? String } == order)
        let own = try #require(before["own"]?.coordinate)
        #expect(
            formers[0]["latitude"] as? Double == own.latitude && formers[0]["longitude"] as? Double == own.longitude)
        #expect(formers[0]["locationSource"] as? String == "exif")
        #expect(
            formers.dropFirst().allSatisfy { $0["latitude"] is NSNull && $0["longitude"] is NSNull }, "\(moved.text)")
        #expect(answer["changed"] as? Int == 3)
        #expect(
            try records().values.allSatisfy { $0.coordinate == Coordinate(latitude: -33.8568, longitude: 151.2153) })

        // The undo photomap-edit-changes.js sends: each place the photos were at, then the removal for the others.
        var back: [String] = []
        for former in formers {
            let id = try #require(former["id"] as? String)
            if let latitude = former["latitude"] as? Double, let longitude = former["longitude"] as? Double {
                back.append(#"{"photos": ["\#(id)"], "latitude": \#(latitude), "longitude": \#(longitude)}"#)
            }
        }
        let unlocated = formers.filter { $0["latitude"] is NSNull }.compactMap { $0["id"] as? String }
        back.append(#"{"photos": ["\#(unlocated.joined(separator: "\", \""))"], "clear": true}"#)
        for body in back {
            let undone = try server.post(body, as: owner)
            #expect(undone.status == 200, "\(undone.text)")
        }
        let after = try records()
        #expect(
            after["own"]?.coordinate == own, "exactly where it was: \(String(describing: after["own"]?.coordinate))")
        #expect(after["bare"]?.coordinate == nil && after["third"]?.coordinate == nil)
        #expect(after["bare"]?.placeID == LocalPlace.unlocatedID && after["own"]?.placeID == before["own"]?.placeID)
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
        #expect(cases[16].2.text.contains(unknown) && !cases[16].2.text.contains(bare))
        let get = try server.exchange("GET /api/photos/locations HTTP/1.1\r\n\(server.head(owner.cookie))\r\n")
        #expect(get.status == 405 && get.headers["allow"] == "POST", "\(get.text)")
        #expect(try version() == before)
        #expect(try records()["bare"]?.coordinate == nil)
        #expect(!FileManager.default.fileExists(atPath: sidecar("bare")))
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
        let moved = try server.post(
            #"{"photos": ["\#(bare)"], "latitude": -33.8568, "longitude": 151.2153}"#, as: try server.signIn("owner"))
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

    /// Imports the photos (public), adds the owner and a friend, and starts serve writing sidecars, with
    /// `global` options before each command (`--database URL`).
    func setUp(_ global: [String] = []) throws -> EditServer {
        #expect(try photomap(global + ["import", "--visibility", "public", photos.url.path]) == 0)
        let password = Self.password + "\n"
        let owner = ["users", "add", "owner", "--role", "owner", "--password-stdin"]
        #expect(try photomap(global + owner, input: password) == 0)
        let friend = ["users", "add", "anna", "--role", "friend", "--password-stdin"]
        #expect(try photomap(global + friend, input: password) == 0)
        let serve = try ServeProcess(
            ["--cache", cache.url.path, "--source", "local"] + global, serveArguments: ["--sidecars", "write"],
            environment: [:])
        return EditServer(serve: serve, password: Self.password)
    }
}
