// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// A listing kept by several processes at once (instances of a fleet fetching pages of one query):
/// each merges its page into the listing under the store's lock on the key, and none is lost.
@Suite("Kept listings merged by two writers at once, on either engine")
struct KeptListingTests {
    let folder: TemporaryFolder
    let key = "listing\nflickr.photos.search\ntext=bridge"
    static let pages = 20, perPage = 10

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Page `page` of the listing as Flickr sends it, each photo titled `round`.
    func answer(page: Int, round: String) -> Data {
        let photos = (0..<Self.perPage).map { index in
            let id = 1_000 + (page - 1) * Self.perPage + index
            return
                #"{"id":"\#(id)","owner":"1@N01","secret":"s","server":"1","farm":1,"title":"\#(round)","ispublic":1}"#
        }
        return Data(
            (#"{"photos":{"page":\#(page),"pages":\#(Self.pages),"perpage":\#(Self.perPage),"total":"200","photo":["#
                + photos.joined(separator: ",") + #"]},"stat":"ok"}"#).utf8)
    }

    @Test("two writers keeping alternate pages of one listing at once lose none", arguments: StateEngine.allCases)
    func twoWriters(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        let first = ListingCache(store: try place.stores().answers)
        for page in 1...Self.pages {
            try first.keep(answer(page: page, round: "old"), page: page, perPage: Self.perPage, key: key)
        }
        // Each writer another process's store (its own connections, its own file descriptors).
        let writers = try (0..<2).map { _ in ListingCache(store: try place.stores().answers) }
        let failures = Locked<[String]>([])
        for round in ["one", "two", "three"] {
            DispatchQueue.concurrentPerform(iterations: 2) { writer in
                for page in stride(from: 1 + writer, through: Self.pages, by: 2) {
                    do {
                        try writers[writer].keep(
                            answer(page: page, round: round), page: page, perPage: Self.perPage, key: key)
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let reader = ListingCache(store: try place.stores().answers)
            let whole = try reader.answer(page: 1, perPage: Self.pages * Self.perPage, key: key, allowStale: true)
                .get()
            let titles = String(decoding: whole, as: UTF8.self).components(separatedBy: #""title":""#).dropFirst()
                .map { $0.prefix { $0 != "\"" } }
            #expect(titles.count == Self.pages * Self.perPage)
            #expect(titles.allSatisfy { $0 == round }, "round \(round): \(titles.filter { $0 != round }.count) lost")
        }
    }
}
