// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

/// `photomap serve` opened by many people at once: sixteen different place pages asked together go to
/// Flickr side by side (about one call's time, not sixteen), and a new server on the cache that kept
/// their listings answers them all without a call and without lining them up.
@Suite("photomap serve, many people at once")
struct ServeCrowdEndToEndTests {
    let flickr = LoopbackServer.flickr
    let folder: TemporaryFolder
    /// Names this test's calls in the Flickr server's log.
    let key = "crowd-\(UUID().uuidString)"

    init() throws {
        folder = try TemporaryFolder()
        try PrebuiltIndexes.copy(into: folder.url)
    }

    /// A server whose Flickr answers every call after `delay` seconds.
    func serve(delay: Double) throws -> ServeProcess {
        try ServeProcess(
            ["--source", "flickr", "--api-key", key, "--endpoint", flickr.endpoint("slow/\(delay)")],
            environment: ["PHOTOMAP_CACHE": folder.url.path])
    }

    /// Sixteen of the embedded catalog's places, each a page of its own.
    func placePages() throws -> [String] {
        let file = LoopbackServer.repositoryRoot.appendingPathComponent("Fixtures/catalog/top-places.json")
        let top = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let places = (top?["places"] as? [String: Any])?["place"] as? [[String: Any]] ?? []
        let pages = places.prefix(16).compactMap { ($0["place_id"] as? String).map { "/places/\($0)" } }
        try #require(pages.count == 16)
        return pages
    }

    /// Asks for every page at once, each on a thread and connection of its own; the statuses, and the
    /// seconds until the last answer.
    func together(_ pages: [String], on server: ServeProcess) -> (statuses: [Int], seconds: TimeInterval) {
        let statuses = Locked([Int]())
        let answered = DispatchGroup()
        let started = Date()
        for page in pages {
            answered.enter()
            Thread {
                let status = (try? server.request(page, timeout: 60).status) ?? 0
                statuses.withLock { $0.append(status) }
                answered.leave()
            }.start()
        }
        answered.wait()
        return (statuses.withLock { $0 }, Date().timeIntervalSince(started))
    }

    @Test(
        "16 cold place pages at once: Flickr's calls go side by side, and a new server on the kept listings calls none"
    )
    func sixteenPagesAtOnce() throws {
        let pages = try placePages()
        let delay = 1.0
        let cold = try serve(delay: delay)
        let first = together(pages, on: cold)
        #expect(first.statuses == Array(repeating: 200, count: 16), "\(first.statuses)\n\(cold.stderr)")
        // One at a time, the 16 searches alone would take 16 s; side by side they go out within a call's time.
        let searches = try flickr.times(where: ("api_key", key))
        #expect(searches.count >= 16)
        let spread = (searches.last ?? 0) - (searches.first ?? 0)
        #expect(spread < 3 * delay, "the calls went out over \(spread) s")
        // The spread shows the calls side by side; the whole stays under the 16 s of one call at a time, with
        // room for making the pages under ThreadSanitizer on a busy machine (8.005 s once, against 8).
        #expect(first.seconds < 12 * delay, "16 pages took \(first.seconds) s")
        cold.stop()

        // Every listing is kept on disk: a new server answers all sixteen at once without a call.
        let calls = searches.count
        let kept = try serve(delay: delay)
        let second = together(pages, on: kept)
        #expect(second.statuses == Array(repeating: 200, count: 16), "\(second.statuses)\n\(kept.stderr)")
        #expect(try flickr.times(where: ("api_key", key)).count == calls, "a kept listing was asked for again")
        #expect(second.seconds < 8, "16 kept pages took \(second.seconds) s")
        kept.stop()
    }
}
