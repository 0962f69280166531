// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// The recently viewed photos and the Flickr call budget behave the same on both engines: the cache
/// folder's files and PostgreSQL. "Another process" is another store on the same folder or database.
@Suite("Recents and the call budget, on either engine")
struct SharedStateTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func photo(_ id: String) -> Photo {
        var photo = Photo(
            id: id, owner: "owner\(id)", secret: "s", server: "1", title: "Photo \(id) — “quoted”", placeID: "P")
        photo.coordinate = Coordinate(latitude: 48.85, longitude: 2.35)
        photo.tags = ["a", "b c"]
        return photo
    }

    @Test(
        "a viewed photo goes first, once; at most 50 are kept; another process sees them",
        arguments: StateEngine.allCases)
    func recents(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        let recents = try place.stores().recents
        #expect(try recents.photos().isEmpty)
        for id in ["1", "2", "3"] { try recents.viewed(photo(id)) }
        try recents.viewed(photo("1"))
        #expect(try recents.photos().map(\.id) == ["1", "3", "2"])
        #expect(try recents.photos().first == photo("1"), "the whole record comes back")
        for number in 10..<70 { try recents.viewed(photo(String(number))) }
        let other = try place.stores().recents
        #expect(try other.photos().map(\.id) == (20..<70).reversed().map(String.init))
    }

    @Test("views from many threads at once (processes alike) are all kept", arguments: StateEngine.allCases)
    func concurrentViews(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 20) { number in
            do {
                try place.stores().recents.viewed(photo(String(number)))
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(Set(try place.stores().recents.photos().map(\.id)) == Set((0..<20).map(String.init)))
    }

    func limiter(_ place: StatePlace, key: String = "KEY", callsPerHour: Int = 3_600) throws -> FlickrRateLimiter {
        FlickrRateLimiter(
            budget: try place.stores().callBudget(apiKey: key), callsPerHour: callsPerHour,
            sleep: { _ in })
    }

    @Test(
        "a minute's calls go at once, then each waits its own slot, one interval apart", arguments: StateEngine.allCases
    )
    func burstThenSlots(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        let first = try limiter(place)
        let waits = try (0..<60).map { _ in try first.reserve() }
        #expect(waits.allSatisfy { $0 == 0 })
        // Sixteen more, each from a limiter of its own (its own connection or file descriptor): each may go
        // at its own slot, one interval after another. (The bucket refills as the clock runs, so on a busy
        // machine a later call waits less: the time it may go is what is compared, not its wait.)
        let start = Date()
        let later = Locked<[TimeInterval]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let wait = (try? limiter(place).reserve()) ?? -1
            let goes = Date().timeIntervalSince(start) + wait
            later.withLock { $0.append(wait > 0 ? goes : -1) }
        }
        let interval = 3_600.0 / 3_540
        let goes = later.withLock { $0 }.sorted()
        #expect(goes.count == 16 && goes.allSatisfy { $0 > 0 })
        let gaps = zip(goes, goes.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { abs($0 - interval) < 0.3 }, "\(gaps)")
        #expect(try limiter(place, key: "another key").reserve() == 0, "another key, another bucket")
    }

    @Test("the key is kept only as a salted hash", arguments: StateEngine.allCases)
    func keyNeverStored(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        let key = "0123456789abcdef0123456789abcdef"
        _ = try limiter(place, key: key).reserve()
        let stored: String
        if let database = place.database {
            stored = try TestDatabase.psql(database.url, "SELECT key_hash || ' ' || tokens FROM call_budgets")
        } else {
            let rate = folder.url.appendingPathComponent("rate")
            stored = try FileManager.default.contentsOfDirectory(atPath: rate.path).map { name in
                name + ((try? String(contentsOf: rate.appendingPathComponent(name), encoding: .utf8)) ?? "")
            }.joined(separator: "\n")
        }
        #expect(stored.contains(FileCallBudget.keyHash(key)))
        #expect(!stored.contains(key) && !stored.contains(key.prefix(8)))
    }

    @Test(
        "two processes wanting 200 calls each with a budget of 60 an hour get one minute's worth between them",
        arguments: StateEngine.allCases)
    func sharedBudget(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        let granted = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            guard let limiter = try? limiter(place, callsPerHour: 60) else { return }
            for _ in 0..<200 where (try? limiter.reserve()) == 0 { granted.withLock { $0 += 1 } }
        }
        // A bucket of 60 an hour holds one call; each later one waits a minute.
        #expect(granted.withLock { $0 } == 1)
    }
}
