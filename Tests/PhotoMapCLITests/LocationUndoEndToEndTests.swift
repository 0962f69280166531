// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapTestSupport
import Testing

/// The undo history lives in the catalog's state, not in one `serve`'s memory: an edit made through one
/// instance is undone through another sharing the database, and an edit outlives a restart.
extension LocationEditEndToEndTests {
    @Test("with --database: an edit through one serve is undone through another, once")
    func undoAcrossInstances() throws {
        let database = try TestDatabase()
        let url = try database.leastPrivilegedURL()
        let first = try setUp(["--database", url])
        defer { first.serve.stop() }
        let otherCache = try TemporaryFolder()
        let second = EditServer(
            serve: try ServeProcess(
                ["--cache", otherCache.url.path, "--database", url, "--source", "local"],
                serveArguments: ["--sidecars", "write"], environment: [:]),
            password: Self.password)
        defer { second.serve.stop() }
        var catalog = PostgresLocalCatalog(pool: try database.pool())
        catalog.showsFenced = true
        catalog.audiences = Set(Audience.allCases)
        let own = try #require(try catalog.allPhotos().first { $0.title == "own" })
        let bare = try #require(try catalog.allPhotos().first { $0.title == "bare" })

        let moved = try first.post(
            #"{"photos": ["\#(own.id)", "\#(bare.id)"], "latitude": 1, "longitude": 2}"#, as: try first.signIn("owner"))
        #expect(moved.status == 200, "\(moved.text)")
        let edit = try #require(
            (try JSONSerialization.jsonObject(with: moved.body) as? [String: Any])?["edit"] as? String)
        #expect(try catalog.photo(id: own.id)?.locationSource == .manual)

        let undone = try second.post(#"{"undo": "\#(edit)"}"#, as: try second.signIn("owner"))
        #expect(undone.status == 200 && undone.text.contains(#""locationSource":"exif""#), "\(undone.text)")
        let ownBack = try #require(try catalog.photo(id: own.id))
        #expect(
            ownBack.coordinate == own.coordinate && ownBack.locationSource == .exif && ownBack.placeID == own.placeID)
        let bareBack = try #require(try catalog.photo(id: bare.id))
        #expect(bareBack.coordinate == nil && bareBack.locationSource == nil && bareBack.placeID == bare.placeID)
        // Both instances' pages show the photo where its own GPS puts it again.
        for server in [first, second] {
            var page = ""
            for _ in 0..<40 where !page.contains("46.056900, 14.505800") {
                page = String(decoding: try server.serve.request("/photos/\(own.id)").body, as: UTF8.self)
                if !page.contains("46.056900, 14.505800") { Thread.sleep(forTimeInterval: 0.1) }
            }
            #expect(page.contains("46.056900, 14.505800") && !page.contains("location set by hand"))
        }

        let twice = try first.post(#"{"undo": "\#(edit)"}"#, as: try first.signIn("owner"))
        #expect(twice.status == 404, "\(twice.text)")
        #expect(try catalog.photo(id: own.id)?.locationSource == .exif)
    }

    @Test("an edit made before serve restarted is undone after it")
    func undoAfterRestart() throws {
        let server = try setUp()
        var running: ServeProcess? = server.serve
        defer { running?.stop() }
        let bare = try #require(try records()["bare"])
        let moved = try server.post(
            #"{"photos": ["\#(bare.id)"], "latitude": 1, "longitude": 2}"#, as: try server.signIn("owner"))
        server.serve.stop()
        running = nil
        let edit = try #require(
            (try JSONSerialization.jsonObject(with: moved.body) as? [String: Any])?["edit"] as? String)
        #expect(try records()["bare"]?.locationSource == .manual)

        let restarted = EditServer(
            serve: try ServeProcess(
                ["--cache", cache.url.path, "--source", "local"], serveArguments: ["--sidecars", "write"],
                environment: [:]),
            password: Self.password)
        defer { restarted.serve.stop() }
        let undone = try restarted.post(#"{"undo": "\#(edit)"}"#, as: try restarted.signIn("owner"))
        #expect(undone.status == 200, "\(undone.text)")
        let back = try #require(try records()["bare"])
        #expect(back.coordinate == nil && back.locationSource == nil && back.placeID == bare.placeID)
        #expect(try restarted.post(#"{"undo": "\#(edit)"}"#, as: try restarted.signIn("owner")).status == 404)
    }
}
