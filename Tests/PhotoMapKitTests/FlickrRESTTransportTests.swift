// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapNetworking
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// Collects the waits an HTTPClient asks for, so retries are tested without sleeping.
final class SleepRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var waits: [TimeInterval] = []
    var recorded: [TimeInterval] { lock.withLock { waits } }
    func sleep(_ seconds: TimeInterval) { lock.withLock { waits.append(seconds) } }
}

@Suite("Flickr REST over libcurl, against a Flickr-protocol server on 127.0.0.1")
struct FlickrRESTTransportTests {
    let server = LoopbackServer.flickr
    let newYork = "LATOAYBHhITBWjUq5GkE"
    /// A key of this test's own, so its requests can be picked out of the server's log.
    let key = "key-\(UUID().uuidString)"

    func source(
        _ scenario: String = "", cache: ResponseCache? = nil, offline: Bool = false,
        sleeper: SleepRecorder = SleepRecorder(), timeouts: HTTPTimeouts = HTTPTimeouts(),
        retry: RetryPolicy = RetryPolicy(baseDelay: 0.01),
        limiter: FlickrRateLimiter? = nil
    ) throws -> FlickrSource {
        let client = HTTPClient(retryPolicy: retry, timeouts: timeouts, sleep: sleeper.sleep)
        return FlickrSource(
            transport: try FlickrRESTTransport(
                endpoint: server.endpoint(scenario),
                apiKey: offline ? "" : key, cache: cache,
                offline: offline, client: client, limiter: limiter))
    }

    @Test("a busy 2xx is retried as a 503 is; one asking a longer wait than is honoured, or the last, is handed back")
    func busyAnswers() {
        let policy = RetryPolicy(maximumAttempts: 3, baseDelay: 0.5, maximumDelay: 30)
        func decision(retryAfter: TimeInterval?, attempt: Int) -> String {
            let busy = HTTPResponse(status: 200, body: Data("busy".utf8), retryAfter: retryAfter)
            switch policy.decide(.success(busy), attempt: attempt, url: "http://127.0.0.1/", isBusy: { _ in true }) {
            case let .retry(after: delay): return "retry after \(delay)"
            case let .finish(outcome): return (try? outcome.get()).map { "handed back \($0.status)" } ?? "failed"
            }
        }
        #expect(decision(retryAfter: 2, attempt: 1) == "retry after 2.0")
        #expect(decision(retryAfter: 2, attempt: 3) == "handed back 200")
        #expect(decision(retryAfter: 120, attempt: 1) == "handed back 200")
        let plain = HTTPResponse(status: 200, body: Data("ok".utf8))
        guard case .finish = policy.decide(.success(plain), attempt: 1, url: "http://127.0.0.1/") else {
            Issue.record("a 2xx that is not busy was retried")
            return
        }
    }

    @Test("photos.search sends the documented parameters and pages by per_page")
    func requestParameters() throws {
        let listing = try source().photos(inPlace: newYork, limit: 250)
        #expect(listing.items.count == 250)
        #expect(listing.total == 287)
        let requests = try server.requests(where: ("api_key", key))
        // The listing, and Flickr's list of licences to name the photos' licences.
        #expect(requests.map { $0["method"] } == ["flickr.photos.search", "flickr.photos.licenses.getInfo"])
        let query = try #require(requests.first)
        #expect(query["method"] == "flickr.photos.search")
        #expect(query["format"] == "json")
        #expect(query["nojsoncallback"] == "1")
        #expect(query["place_id"] == newYork)
        #expect(query["per_page"] == "250")
        #expect(listing.items.count == 250)
        #expect(query["page"] == "1")
        #expect(query["extras"] == FlickrSource.listingExtras)
        #expect(query["media"] == "photos")
    }

    @Test("places.getInfo sends place_id and reads Flickr's place (names, centre, page); an unknown id is code 2")
    func placeInfo() throws {
        let place = try source().placeInfo(newYork)
        let listed = try #require(try source().topPlaces().items.first { $0.id == newYork })
        #expect(place.fullName == "New York, New York, United States" && place.shortName == "New York")
        #expect(place.coordinate == listed.coordinate && place.url == listed.url && place.woeid == listed.woeid)
        #expect(place.type == "locality" && place.typeID == 7 && place.photoCount == nil)
        let query = try #require(try server.requests(where: ("api_key", key)).first)
        #expect(query["method"] == "flickr.places.getInfo" && query["place_id"] == newYork)
        #expect(
            throws: FlickrError.apiFailure(
                method: "flickr.places.getInfo", code: 2,
                message: "Not a valid Places ID")
        ) {
            try source().placeInfo("nowhere")
        }
        #expect(
            throws: FlickrError.apiFailure(
                method: "flickr.places.getInfo", code: 100,
                message: "Invalid API Key (Key has invalid format)")
        ) {
            try source("fail100").placeInfo(newYork)
        }
    }

    @Test("the same records arrive when Flickr sends every number as a string")
    func numbersAsStrings() throws {
        let plain = try source().topPlaces().items
        let strings = try source("numbers-as-strings").topPlaces().items
        #expect(plain.count >= 40)
        #expect(strings == plain)
        let photos = try source("numbers-as-strings").photos(inPlace: newYork, limit: 300)
        #expect(photos.items.count == 287)
        #expect(photos.items.filter { $0.coordinate != nil }.count > 250)
    }

    @Test("stat fail with code 100 is an error quoting Flickr, never the key")
    func invalidKey() throws {
        let error = #expect(throws: FlickrError.self) { try source("fail100").topPlaces() }
        #expect(error?.description.hasPrefix("Flickr rejected the API key (code 100)") == true)
        #expect(error?.description.contains(key) == false)
    }

    @Test("a 503 with Retry-After is retried after the time asked, then succeeds")
    func retryAfter503() throws {
        let sleeper = SleepRecorder()
        let places = try source("status/503/\(UUID().uuidString)/1", sleeper: sleeper).topPlaces()
        #expect(places.items.count >= 40)
        #expect(sleeper.recorded == [1])
        #expect(try server.requests(where: ("api_key", key)).count == 2)
    }

    @Test("a 5xx that persists ends after the retries with the status")
    func persistent503() throws {
        let sleeper = SleepRecorder()
        let error = #expect(throws: HTTPError.self) {
            try source("status/502/\(UUID().uuidString)/99", sleeper: sleeper).topPlaces()
        }
        guard case .status(502, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(sleeper.recorded.count == 3)
        #expect(error?.description.contains(key) == false)
    }

    @Test("a 404 is not retried")
    func notFound() throws {
        let sleeper = SleepRecorder()
        #expect(throws: HTTPError.self) {
            try source("status/404/\(UUID().uuidString)/1", sleeper: sleeper).topPlaces()
        }
        #expect(sleeper.recorded.isEmpty)
    }

    @Test("a reset connection is retried with backoff")
    func connectionReset() throws {
        let sleeper = SleepRecorder()
        #expect(try source("reset/\(UUID().uuidString)/2", sleeper: sleeper).topPlaces().items.count >= 40)
        #expect(sleeper.recorded.count == 2)
        #expect(sleeper.recorded[1] > sleeper.recorded[0], "backoff grows")
    }

    @Test("a server slower than the timeout gives a timeout error")
    func timeout() throws {
        let error = #expect(throws: HTTPError.self) {
            try source("slow/3", timeouts: HTTPTimeouts(connect: 1, total: 1), retry: .never).topPlaces()
        }
        guard case .transport(28, _, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
    }

    @Test("malformed JSON and an HTML page sent with 200 are errors", arguments: ["malformed", "html200"])
    func malformed(scenario: String) throws {
        let error = #expect(throws: FlickrError.self) { try source(scenario).topPlaces() }
        guard case .malformedAnswer("flickr.places.getTopPlacesList", _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
    }

    @Test("http redirects are followed; a redirect to file:// is refused")
    func redirects() throws {
        #expect(try source("redirect/ok").topPlaces().items.count >= 40)
        let error = #expect(throws: HTTPError.self) { try source("redirect-file").topPlaces() }
        guard case .transport(1, _, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(throws: HTTPError.unsupportedURL("file:///etc/passwd")) {
            try HTTPClient().get("file:///etc/passwd")
        }
    }

    @Test("answers are cached: a second call within the TTL makes no request, and --offline answers from the cache")
    func responseCache() throws {
        let folder = try TemporaryFolder()
        let cache = ResponseCache(directory: folder.url, timeToLive: 3600)
        let first = try source(cache: cache).topPlaces().items
        let second = try source(cache: cache).topPlaces().items
        #expect(first == second)
        #expect(try server.requests(where: ("api_key", key)).count == 1)
        #expect(try source(cache: cache, offline: true).topPlaces().items == first)

        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(files.count == 1)
        #expect(files.allSatisfy { !$0.contains(key) && $0.hasSuffix(".json") })
        let stored = try String(contentsOf: folder.url.appendingPathComponent(files[0]), encoding: .utf8)
        #expect(!stored.contains(key))

        let expired = ResponseCache(directory: folder.url, timeToLive: 0)
        _ = try source(cache: expired).topPlaces()
        #expect(try server.requests(where: ("api_key", key)).count == 2, "an expired answer is fetched again")
    }

    @Test("Flickr out of reach: a kept answer of any age stands in, said once; with none the error stands")
    func staleAnswerWithoutNetwork() throws {
        let folder = try TemporaryFolder()
        // A port no one listens on: every connection is refused (curl error 7).
        let closed = "http://127.0.0.1:\(try NginxProcess.freePort())/services/rest/"
        let method = "flickr.places.getTopPlacesList"
        let parameters = ["place_type_id": "7"]
        let answer = try FlickrRESTTransport(endpoint: server.endpoint(), apiKey: key, cache: nil)
            .call(method: method, parameters: parameters)
        try KeptAnswer(
            endpoint: closed, method: method, parameters: [("place_type_id", "7")],
            cache: ResponseCache(directory: folder.url, timeToLive: 3600)
        ).keep(answer)
        let warnings = Locked<[String]>([])
        let transport = try FlickrRESTTransport(
            endpoint: closed, apiKey: key, cache: ResponseCache(directory: folder.url, timeToLive: 0),
            client: HTTPClient(retryPolicy: RetryPolicy(baseDelay: 0.01), sleep: { _ in }),
            warn: { warning in warnings.withLock { $0.append(warning) } })
        #expect(try transport.call(method: method, parameters: parameters) == answer)
        #expect(try transport.call(method: method, parameters: parameters) == answer)
        let said = warnings.withLock { $0 }
        #expect(said.count == 1)
        #expect(said.first?.hasPrefix("Flickr is out of reach (cannot fetch \(closed): ") == true, "\(said)")
        #expect(said.allSatisfy { !$0.contains(key) })
        #expect {
            try transport.call(method: "flickr.places.getInfo", parameters: ["place_id": newYork])
        } throws: { error in
            (error as? HTTPError)?.isNoNetwork == true
        }
    }

    @Test("a damaged cached answer is a miss: fetched again and replaced")
    func damagedCacheEntry() throws {
        let folder = try TemporaryFolder()
        let cache = ResponseCache(directory: folder.url, timeToLive: 3600)
        _ = try source(cache: cache).topPlaces()
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).first)
        try Data("{\"places\":".utf8).write(to: folder.url.appendingPathComponent(file))
        #expect(try source(cache: cache).topPlaces().items.count >= 40)
        #expect(try server.requests(where: ("api_key", key)).count == 2)
        #expect(FlickrSource.status(of: try Data(contentsOf: folder.url.appendingPathComponent(file)))?.stat == "ok")
    }

    @Test("a Retry-After longer than the policy allows ends the retries at once")
    func retryAfterTooLong() {
        let policy = RetryPolicy(maximumAttempts: 4, baseDelay: 0.01, maximumDelay: 0.5)
        let error = #expect(throws: HTTPError.self) {
            try HTTPClient(retryPolicy: policy)
                .get(server.endpoint("status/503/\(UUID().uuidString)/5") + "?api_key=\(key)")
        }
        guard case .retryAfterTooLong(1, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
    }

    @Test("a body over the size limit is refused")
    func bodyLimit() {
        let error = #expect(throws: HTTPError.self) {
            let query =
                "?method=flickr.places.getTopPlacesList&place_type_id=7&api_key=\(key)"
                + "&nojsoncallback=1&format=json"
            _ = try HTTPClient(retryPolicy: .never).get(server.endpoint() + query, maximumBodyBytes: 1_000)
        }
        guard case .transport(_, let message, _)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(message.contains("larger than 1000 bytes"))
    }

    @Test("Retry-After as an HTTP date is honoured (libcurl reads it)")
    func retryAfterDate() throws {
        let sleeper = SleepRecorder()
        let client = HTTPClient(retryPolicy: RetryPolicy(maximumAttempts: 2, baseDelay: 0.01), sleep: sleeper.sleep)
        let images = LoopbackServer.images
        let response = try client.get(images.url("/retry-date/\(UUID().uuidString)/square-1.png"))
        #expect(response.status == 200)
        let waits = sleeper.recorded
        #expect(waits.count == 1 && (1...3).contains(waits[0]), "\(waits)")
        #expect(
            RetryPolicy.isTransient(status: 429) && RetryPolicy.isTransient(status: 503)
                && !RetryPolicy.isTransient(status: 404))
    }

    @Test("on the multi loop, a 503 with Retry-After holds back the host's whole queue until then")
    func hostPausedByRetryAfter() async throws {
        let images = LoopbackServer.images
        // One connection: the others queue behind the first, and the 503 frees the slot for them.
        let retry = RetryPolicy(maximumAttempts: 2, baseDelay: 0.01)
        let origin = HTTPImageOrigin(settings: HTTPSettings(retryPolicy: retry), connectionsPerHost: 1)
        let first = "/retry-date/\(UUID().uuidString)/square-1.png"
        let asked = Date().timeIntervalSinceReferenceDate
        async let retried = Self.fetched(origin, images.url(first))
        while try images.count(of: first) == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let others = try await withThrowingTaskGroup(of: TimeInterval.self) { group in
            for n in 2...4 {
                group.addTask {
                    try await Self.fetched(origin, images.url("/ok/square-\(n).png?pause=\(UUID().uuidString)"))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let firstDone = try await retried
        // Retry-After is a date 2 s ahead, to the second: 1 to 2 s. Without the pause the others
        // would be done within milliseconds of the 503, long before the retry.
        #expect(firstDone - asked >= 0.9, "the retry waited")
        #expect(
            others.allSatisfy { $0 >= firstDone - 0.01 },
            "the others waited, and the retry went first: \(others.map { $0 - firstDone })")
    }

    /// When `url`'s body arrived through `origin`, as a reference-date time.
    private static func fetched(_ origin: HTTPImageOrigin, _ url: String) async throws -> TimeInterval {
        try await withCheckedThrowingContinuation { continuation in
            origin.fetch(url) { result in
                continuation.resume(with: result.map { _ in Date().timeIntervalSinceReferenceDate })
            }
        }
    }

    @Test("an option libcurl refuses stops the request before it goes out (fail closed)")
    func failClosed() async throws {
        let images = LoopbackServer.images
        let path = "/ok/fail-closed-\(UUID().uuidString).png"
        // libcurl refuses string options over 8 MB (CURL_MAX_INPUT_LENGTH): here the CA file's path.
        let settings = HTTPSettings(retryPolicy: .never, caBundle: String(repeating: "x", count: 9_000_000))
        let error = #expect(throws: HTTPError.self) { try HTTPClient(settings: settings).get(images.url(path)) }
        guard case .optionRefused? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(try images.count(of: path) == 0, "no request went out")
        let cache = ThumbnailCache(
            cacheDirectory: try TemporaryFolder().url,
            origin: HTTPImageOrigin(settings: settings))
        let result = await cache.result(for: Photo(id: "1", images: [.square: ImageReference(url: images.url(path))]))
        guard case .failure(.download(.optionRefused)) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(try images.count(of: path) == 0)
    }

    @Test("--offline without a cached answer is a clear error and makes no request")
    func offlineMiss() throws {
        let folder = try TemporaryFolder()
        #expect(throws: FlickrError.notCached(method: "flickr.places.getTopPlacesList")) {
            try source(cache: ResponseCache(directory: folder.url, timeToLive: 3600), offline: true).topPlaces()
        }
    }

    @Test("--offline with a damaged cached answer or listing says so, names its cache key, and makes no request")
    func offlineDamaged() throws {
        let folder = try TemporaryFolder()
        let cache = ResponseCache(directory: folder.url, timeToLive: 3600)
        _ = try source(cache: cache).topPlaces()
        _ = try source(cache: cache).photos(inPlace: newYork, limit: 20)
        let calls = try server.requests(where: ("api_key", key)).count
        // The top places' answer and the listing (the licences' answer stays whole), cut short.
        var files: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) where file.hasSuffix(".json") {
            let url = folder.url.appendingPathComponent(file)
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            guard text.contains(#""places":{"#) || text.contains(#""listing":"#) else { continue }
            try Data(text.utf8.prefix(100)).write(to: url)
            files.append(file)
        }
        #expect(files.count == 2)
        for (method, call) in [
            ("flickr.places.getTopPlacesList", { _ = try self.source(cache: cache, offline: true).topPlaces() }),
            (
                "flickr.photos.search",
                { _ = try self.source(cache: cache, offline: true).photos(inPlace: newYork, limit: 20) }
            ),
        ] as [(String, () throws -> Void)] {
            let error = #expect(throws: FlickrError.self) { try call() }
            guard case let .cachedAnswerDamaged(named, key, store)? = error else {
                Issue.record("\(method): got \(String(describing: error))")
                continue
            }
            #expect(named == method && store == folder.url.path)
            #expect(files.contains("\(key).json"), "\(key) names its file")
            #expect(error?.description.contains("is damaged and cannot be read") == true)
            #expect(error?.description.contains(self.key) == false)
        }
        #expect(try server.requests(where: ("api_key", key)).count == calls)
    }

    @Test("failures are not cached")
    func failuresNotCached() throws {
        let folder = try TemporaryFolder()
        #expect(throws: FlickrError.self) {
            try source("fail100", cache: ResponseCache(directory: folder.url, timeToLive: 3600)).topPlaces()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
