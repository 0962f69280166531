// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapNetworking
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// A photos.search answer holding `records` (JSON objects), as Flickr shapes it.
private func photosAnswer(_ records: [String]) -> String {
    #"{"photos":{"page":1,"pages":"1","perpage":100,"total":"\#(records.count)","photo":[\#(records.joined(separator: ","))]},"stat":"ok"}"#
}

/// Flickr's answer to flickr.photos.licenses.getInfo (two of its licences), numbers as numbers.
private let licensesAnswer = """
    {"licenses":{"license":[{"id":0,"name":"All Rights Reserved","url":""},
    {"id":4,"name":"Attribution License","url":"https://creativecommons.org/licenses/by/2.0/"}]},"stat":"ok"}
    """

@Suite("Flickr's records as Flickr sends them: dates, videos, licences, links back")
struct FlickrRecordTests {
    @Test("Flickr's unknown date taken (datetakenunknown 1, or its 1969-12-31 placeholder) is no date")
    func unknownDate() throws {
        let transport = FakeFlickrTransport(methods: [
            "flickr.photos.search": photosAnswer([
                #"{"id":"1","datetaken":"1969-12-31 16:00:00","datetakenunknown":"1"}"#,
                #"{"id":"2","datetaken":"2014-04-23 09:33:01","datetakenunknown":1}"#,
                #"{"id":"3","datetaken":"1969-12-31 19:00:00","datetakenunknown":"0"}"#,
                #"{"id":"4","datetaken":"2011-04-15 17:48:17","datetakenunknown":"0"}"#,
                #"{"id":"5","datetaken":"0000-00-00 00:00:00"}"#,
            ])
        ])
        let photos = try FlickrSource(transport: transport).photos(inPlace: "p", limit: 10).items
        #expect(photos.map(\.dateTaken) == [nil, nil, nil, "2011-04-15 17:48:17", nil])
        let records = photos.map { OutputRecord(AnnotationAdapter().annotation(for: $0)) }
        var text = ""
        let writer = AnnotationWriter(format: .json, title: "", extraFields: []) { text += $0 }
        for record in records { try writer.write(record) }
        try writer.finish()
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        #expect(json?[0]["dateTaken"] is NSNull, "null in JSON, never the placeholder")
        #expect(json?[3]["dateTaken"] as? String == "2011-04-15 17:48:17")
    }

    @Test("media=photos is asked, and a video in the answer anyway is left out without ending the listing")
    func videos() throws {
        let transport = FakeFlickrTransport(methods: [
            "flickr.photos.search": photosAnswer([
                #"{"id":"1","media":"photo","title":"a"}"#,
                #"{"id":"2","media":"video","media_status":"ready","title":"clip"}"#,
                #"{"id":"3","title":"no media extra: a photo"}"#,
            ])
        ])
        let listing = try FlickrSource(transport: transport).photos(inPlace: "p", limit: 10)
        #expect(listing.items.map(\.id) == ["1", "3"])
        #expect(listing.skipped.isEmpty, "a video is not a broken record")
        #expect(transport.calls.first?["media"] == "photos")
    }

    @Test("licences are named from flickr.photos.licenses.getInfo, asked once per source")
    func licences() throws {
        let transport = FakeFlickrTransport(methods: [
            "flickr.photos.search": photosAnswer([
                #"{"id":"1","license":"4"}"#, #"{"id":"2","license":0}"#,
                #"{"id":"3","license":"99"}"#, #"{"id":"4"}"#,
            ]),
            "flickr.photos.licenses.getInfo": licensesAnswer,
        ])
        let source = FlickrSource(transport: transport)
        let photos = try source.photos(inPlace: "p", limit: 10).items
        _ = try source.photos(inPlace: "q", limit: 10)
        #expect(
            photos[0].license
                == License(
                    id: "4", name: "Attribution License",
                    url: "https://creativecommons.org/licenses/by/2.0/"))
        #expect(photos[1].license == License(id: "0", name: "All Rights Reserved"), "Flickr's empty url is none")
        #expect(photos[2].license?.displayName == "Flickr licence 99", "an id Flickr's list lacks is still shown")
        #expect(photos[3].license == nil)
        #expect(transport.calls.filter { $0["method"] == "flickr.photos.licenses.getInfo" }.count == 1)
    }

    @Test("without Flickr's list of licences the fallback list names them")
    func licenceFallback() throws {
        let transport = FakeFlickrTransport(methods: [
            "flickr.photos.search": photosAnswer([#"{"id":"1","license":"4"}"#])
        ])
        let source = FlickrSource(
            transport: transport,
            fallbackLicenses: { ["4": License(id: "4", name: "Attribution License")] })
        #expect(try source.photos(inPlace: "p", limit: 1).items.first?.license?.name == "Attribution License")
    }

    @Test("a photo links to its page on Flickr: the owner's path alias, else the owner's NSID")
    func linkBack() {
        #expect(
            Photo(id: "53212345678", owner: "12345678@N05", pathAlias: "jdoe").flickrPageURL
                == "https://www.flickr.com/photos/jdoe/53212345678")
        #expect(
            Photo(id: "53212345678", owner: "12345678@N05").flickrPageURL
                == "https://www.flickr.com/photos/12345678@N05/53212345678")
        #expect(Photo(id: "1").flickrPageURL == nil, "no owner, no page")
        #expect(
            Photo(id: "1/../2", owner: "a/b?c").flickrPageURL == "https://www.flickr.com/photos/a%2Fb%3Fc/1%2F..%2F2",
            "a hostile id or owner cannot add a path segment or a query")
    }

    @Test("pathalias null, numbers as strings and description as {_content} decode as Flickr sends them")
    func shapes() throws {
        let transport = FakeFlickrTransport(methods: [
            "flickr.photos.search": photosAnswer([
                #"{"id":53212345678,"owner":"1@N05","pathalias":null,"license":"4","description":{"_content":"x"},"latitude":"48.85","longitude":2.35,"ownername":"Zoë"}"#
            ])
        ])
        let photo = try #require(try FlickrSource(transport: transport).photos(inPlace: "p", limit: 1).items.first)
        #expect(photo.id == "53212345678" && photo.pathAlias == "" && photo.descriptionHTML == "x")
        #expect(AnnotationAdapter().annotation(for: photo).pageURL == "https://www.flickr.com/photos/1@N05/53212345678")
    }
}

@Suite("Pacing Flickr calls: a token bucket in the cache folder")
struct FlickrRateLimiterTests {
    /// A clock the test moves; sleeping moves it.
    final class Clock: Sendable {
        let now = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let waits = Locked<[TimeInterval]>([])
        var date: Date { now.withLock { $0 } }
        func sleep(_ seconds: TimeInterval) {
            waits.withLock { $0.append(seconds) }
            now.withLock { $0 += seconds }
        }
    }

    func limiter(_ folder: TemporaryFolder, key: String = "KEY", clock: Clock, callsPerHour: Int = 3_600)
        -> FlickrRateLimiter
    {
        FlickrRateLimiter(
            budget: FileCallBudget(cacheDirectory: folder.url, apiKey: key, clock: { clock.date }),
            callsPerHour: callsPerHour, sleep: { clock.sleep($0) })
    }

    /// The file a limiter of `limiter(_:key:clock:)` keeps its bucket in.
    func file(of limiter: FlickrRateLimiter) throws -> URL {
        try #require(limiter.budget as? FileCallBudget).file
    }

    @Test("a minute's calls go at once, then one every 3,600 / 3,540 s; waiting refills")
    func burstThenPace() throws {
        let folder = try TemporaryFolder(), clock = Clock()
        let bucket = limiter(folder, clock: clock)
        let interval = 3_600.0 / 3_540
        let waits = try (0..<62).map { _ in try bucket.reserve() }
        #expect(waits.prefix(60).allSatisfy { $0 == 0 })
        #expect(abs(waits[60] - interval) < 1e-6 && abs(waits[61] - 2 * interval) < 1e-6)
        #expect(abs(bucket.estimatedWait(forCalls: 10) - 12 * interval) < 1e-6, "2 owed plus 10")
        clock.now.withLock { $0 += 10 * interval }
        #expect(try bucket.reserve() == 0, "ten intervals later, the two owed are paid and eight are back")
    }

    @Test("no hour sees more than 3,600 calls, however fast they are asked for")
    func hourly() throws {
        let folder = try TemporaryFolder(), clock = Clock()
        let bucket = limiter(folder, clock: clock)
        let start = clock.date
        var calls = 0
        while clock.date.timeIntervalSince(start) < 3_600 {
            try bucket.acquire()
            if clock.date.timeIntervalSince(start) < 3_600 { calls += 1 }
        }
        #expect(calls <= 3_600 && calls >= 3_590)
    }

    @Test("limiters sharing the folder (threads here, processes alike) take turns: each waits its own slot")
    func shared() throws {
        let folder = try TemporaryFolder(), clock = Clock()
        for _ in 0..<60 { _ = try limiter(folder, clock: clock).reserve() }  // empties the bucket
        let waits = Locked<[TimeInterval]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            // Each its own limiter: its own file descriptor, so only flock orders them.
            let wait = (try? limiter(folder, clock: clock).reserve()) ?? -1
            waits.withLock { $0.append(wait) }
        }
        let interval = 3_600.0 / 3_540
        let slots = waits.withLock { $0 }.map { Int(($0 / interval).rounded()) }.sorted()
        #expect(slots == Array(1...16))
    }

    @Test("the bucket's file (and its lock beside it) is named by a hash of the key, never the key, one per key")
    func fileName() throws {
        let folder = try TemporaryFolder(), clock = Clock()
        let key = "0123456789abcdef0123456789abcdef"
        let bucket = limiter(folder, key: key, clock: clock)
        _ = try bucket.reserve()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("rate").path)
        #expect(
            Set(names) == [try file(of: bucket).lastPathComponent, try file(of: bucket).lastPathComponent + ".lock"])
        #expect(names.allSatisfy { !$0.contains(key) && !$0.contains(key.prefix(8)) })
        #expect(!(try String(contentsOf: try file(of: bucket), encoding: .utf8)).contains(key))
        #expect(try file(of: limiter(folder, key: "other", clock: clock)) != (try file(of: bucket)))
    }

    @Test("a damaged bucket file counts as empty; a clock set back refills nothing")
    func damaged() throws {
        let folder = try TemporaryFolder(), clock = Clock()
        let bucket = limiter(folder, clock: clock)
        _ = try bucket.reserve()
        try Data("garbage".utf8).write(to: try file(of: bucket))
        #expect(try bucket.reserve() > 0)
        clock.now.withLock { $0 -= 3_600 }
        #expect(try bucket.reserve() > 0)
    }

    @Test("a folder that cannot hold the bucket is a clear error")
    func unwritable() throws {
        let folder = try TemporaryFolder()
        try Data().write(to: folder.url.appendingPathComponent("rate"))  // a file where the folder goes
        let error = #expect(throws: FlickrError.self) { try limiter(folder, clock: Clock()).acquire() }
        #expect(error?.description.contains("cannot keep count of Flickr API calls") == true)
    }
}

@Suite("Flickr REST against the Flickr-protocol server: kept listings, paced tries, Flickr's shapes")
struct FlickrRESTRulesTests {
    let server = LoopbackServer.flickr
    let key = "key-\(UUID().uuidString)"
    let newYork = "LATOAYBHhITBWjUq5GkE", lisbon = "TKRzEzSrM_ORpMOe"

    func source(
        _ scenario: String = "", cache: (any AnswerStore)? = nil, offline: Bool = false,
        sleeper: SleepRecorder = SleepRecorder(),
        limiter: FlickrRateLimiter? = nil
    ) throws -> FlickrSource {
        let client = HTTPClient(retryPolicy: RetryPolicy(baseDelay: 0.01), sleep: sleeper.sleep)
        return FlickrSource(
            transport: try FlickrRESTTransport(
                endpoint: server.endpoint(scenario),
                apiKey: offline ? "" : key,
                cache: cache, offline: offline, client: client,
                limiter: limiter))
    }

    func searches() throws -> [[String: String]] {
        try server.requests(where: ("api_key", key)).filter { $0["method"] == "flickr.photos.search" }
    }

    @Test(
        "a listing fetched to 100 answers --limit 5 and, offline, any page size up to 100; not 150",
        arguments: StateEngine.allCases)
    func keptListing(engine: StateEngine) throws {
        let folder = try TemporaryFolder()
        let place = try engine.place(in: folder.url)
        let cache = try place.stores().answers
        let hundred = try source(cache: cache).photos(inPlace: newYork, limit: 100).items
        #expect(
            try source(cache: cache).photos(inPlace: newYork, limit: 5).items.map(\.id) == hundred.prefix(5).map(\.id))
        #expect(try searches().count == 1, "fresh: no request for a shorter listing")
        for limit in [5, 37, 100] {
            #expect(
                try source(cache: cache, offline: true).photos(inPlace: newYork, limit: limit).items.map(\.id)
                    == hundred.prefix(limit).map(\.id))
        }
        #expect(throws: FlickrError.notCached(method: "flickr.photos.search")) {
            try source(cache: cache, offline: true).photos(inPlace: newYork, limit: 150)
        }
        // Fetched on to the end, the listing answers offline whatever the size, and past its end.
        let all = try source(cache: cache).photos(inPlace: newYork, limit: 4000).items
        #expect(all.count == 287)
        #expect(
            try source(cache: cache, offline: true).photos(inPlace: newYork, limit: 1000).items.map(\.id)
                == all.map(\.id))
        #expect(try source(cache: cache, offline: true).photos(inPlace: newYork, limit: 120).items.count == 120)
        // Another process (another machine, with the database) answers from the same listing, making no call.
        let calls = try searches().count
        let other = try place.stores().answers
        #expect(
            try source(cache: other).photos(inPlace: newYork, limit: 200).items.map(\.id) == all.prefix(200).map(\.id))
        #expect(try searches().count == calls)
    }

    @Test("a stale listing is fetched again online, and still answers offline", arguments: StateEngine.allCases)
    func staleListing(engine: StateEngine) throws {
        let folder = try TemporaryFolder()
        let place = try engine.place(in: folder.url)
        _ = try source(cache: try place.stores().answers).photos(inPlace: newYork, limit: 10)
        let stale = try place.stores(answerTimeToLive: 0).answers
        _ = try source(cache: stale).photos(inPlace: newYork, limit: 10)
        #expect(try searches().count == 2)
        #expect(try source(cache: stale, offline: true).photos(inPlace: newYork, limit: 10).items.count == 10)
    }

    @Test("the server leaves videos out for media=photos; when an answer holds one anyway, photomap does")
    func videosLeftOut() throws {
        let video = "51503240637"
        let listed = try source().photos(inPlace: lisbon, limit: 100).items.map(\.id)
        let mixed = try source("mixed-media").photos(inPlace: lisbon, limit: 100).items.map(\.id)
        #expect(!listed.contains(video) && !mixed.contains(video))
        #expect(listed == mixed && !listed.isEmpty)
        #expect(try searches().allSatisfy { $0["media"] == "photos" })
    }

    @Test("licences arrive named, pages link back by path alias or owner, unknown dates are none")
    func recordsFromTheServer() throws {
        let photos = try source("numbers-as-strings").photos(inPlace: newYork, limit: 300).items
        #expect(photos.allSatisfy { $0.license?.name.isEmpty == false })
        #expect(photos.contains { !$0.pathAlias.isEmpty } && photos.contains { $0.pathAlias.isEmpty })
        let unknown = try #require(photos.first { $0.id == "45741323281" })
        #expect(unknown.dateTaken == nil)
        let aliased = try #require(photos.first { !$0.pathAlias.isEmpty })
        #expect(aliased.flickrPageURL == "https://www.flickr.com/photos/\(aliased.pathAlias)/\(aliased.id)")
    }

    @Test("a JSONP answer (jsonFlickrApi(…)) reads as well as plain JSON")
    func jsonp() throws {
        #expect(try source("jsonp").topPlaces().items == (try source().topPlaces().items))
        #expect(try source("jsonp").licenses()["4"]?.name == "Attribution License")
    }

    /// A limiter whose bucket (in `folder`, on a stopped clock) is empty: every token has a price, which
    /// `sleeper` records.
    func emptyLimiter(in folder: TemporaryFolder, sleeper: SleepRecorder) throws -> FlickrRateLimiter {
        let limiter = FlickrRateLimiter(
            budget: FileCallBudget(
                cacheDirectory: folder.url, apiKey: key,
                clock: { Date(timeIntervalSince1970: 1_800_000_000) }),
            sleep: { sleeper.sleep($0) })
        for _ in 0..<60 { try limiter.acquire() }
        return limiter
    }

    @Test("a retry waits what Retry-After asks, then for its own token: every try is paced")
    func retryAfterThenToken() throws {
        let folder = try TemporaryFolder(), sleeper = SleepRecorder()
        let limiter = try emptyLimiter(in: folder, sleeper: sleeper)
        let interval = 3_600.0 / 3_540
        _ = try source("status/429/\(UUID().uuidString)/1", sleeper: sleeper, limiter: limiter).topPlaces()
        let waits = sleeper.recorded
        #expect(waits.count == 3)
        #expect(
            abs(waits[0] - interval) < 1e-6 && waits[1] == 1 && abs(waits[2] - 2 * interval) < 1e-6,
            "the first token, Retry-After's 1 s, the retry's token: \(waits)")
    }

    @Test("Flickr's code 105, sent with HTTP 200, is retried, and the retry pays its token too")
    func serviceUnavailable() throws {
        let folder = try TemporaryFolder(), sleeper = SleepRecorder()
        let limiter = try emptyLimiter(in: folder, sleeper: sleeper)
        #expect(
            try source("fail105/\(UUID().uuidString)/1", sleeper: sleeper, limiter: limiter).topPlaces().items.count
                >= 40)
        #expect(sleeper.recorded.count == 3, "token, backoff, token: \(sleeper.recorded)")
        #expect(try server.requests(where: ("api_key", key)).count == 2)
    }

    @Test("a retry whose token cannot be had is not sent: the budget's error ends the call")
    func retryWithoutToken() throws {
        /// A budget that hands out one token and then fails, as a budget file that became unreadable would.
        final class FailingBudget: CallBudgetStore {
            let left = Locked(1)
            var description: String { "a failing budget" }
            func take(_ tokens: Double, capacity: Double, refillPerSecond: Double) throws -> Double {
                try left.withLock { left in
                    guard left > 0 else {
                        throw FlickrError.rateStateUnavailable(path: description, reason: "permission denied")
                    }
                    left -= 1
                    return capacity
                }
            }
        }
        let token = UUID().uuidString
        let limiter = FlickrRateLimiter(budget: FailingBudget(), sleep: { _ in })
        let error = #expect(throws: FlickrError.self) {
            try source("fail105/\(token)/1", limiter: limiter).topPlaces()
        }
        guard case .rateStateUnavailable(let path, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(path == "a failing budget")
        #expect(try server.requests(where: ("api_key", key)).count == 1, "the first try was sent, the retry not")
    }

    @Test("without a sleeper a retry really waits Retry-After before the next request")
    func realRetryAfter() throws {
        let token = UUID().uuidString
        let client = HTTPClient(retryPolicy: RetryPolicy(baseDelay: 0.01))
        _ = try FlickrSource(
            transport: try FlickrRESTTransport(
                endpoint: server.endpoint("status/503/\(token)/1"),
                apiKey: key,
                cache: nil, client: client)
        ).topPlaces()
        let times = try server.times(where: ("api_key", key))
        #expect(times.count == 2)
        #expect(times[1] - times[0] >= 0.99, "retried after \(times[1] - times[0]) s, Retry-After said 1")
    }
}
