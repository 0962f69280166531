// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapModel
import PhotoMapNetworking
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// The thumbnail engine against node's HTTP/2 server over TLS with a test CA: multiplexing, the
/// per-host stream window, and the faults HTTP/2 adds (stream reset, GOAWAY, short body).
@Suite("Thumbnail engine over HTTP/2 and TLS")
struct HTTP2EngineTests {
    let server = LoopbackServer.http2Images
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A cache trusting the test CA, with these retries and this many streams per connection.
    func cache(retries: RetryPolicy = .never, streams: Int = 100, caBundle: String? = TestCA.certificate.path)
        -> ThumbnailCache
    {
        var settings = HTTPImageOrigin.defaultSettings
        settings.retryPolicy = retries
        settings.timeouts = HTTPTimeouts(connect: 3, total: 10, stall: 3)
        settings.caBundle = caBundle
        return ThumbnailCache(
            cacheDirectory: folder.url,
            origin: HTTPImageOrigin(settings: settings, streamsPerConnection: streams))
    }

    func photo(_ path: String) -> Photo {
        Photo(id: path, images: [.square: ImageReference(url: server.url(path), width: 75, height: 75)])
    }

    /// What the server saw under a tag.
    func tagged(_ tag: String) throws -> [String: Int] {
        let body = try HTTPClient(settings: HTTPSettings(retryPolicy: .never, caBundle: TestCA.certificate.path))
            .get(server.url("/_tag?tag=\(tag)")).body
        return try JSONSerialization.jsonObject(with: body) as? [String: Int] ?? [:]
    }

    /// Prefetches and returns the report.
    func prefetch(_ photos: [Photo], with cache: ThumbnailCache) async -> PrefetchReport {
        await withCheckedContinuation { continuation in
            let run = cache.startPrefetch(
                queue: .global(), progress: { _ in },
                completion: { continuation.resume(returning: $0[0]) })
            run.add(photos)
            run.finish()
        }
    }

    @Test(
        "120 squares at once travel as HTTP/2 streams on one TLS connection, never more than the stream limit at once")
    func multiplexed() async throws {
        let tag = UUID().uuidString
        let photos = (0..<120).map { photo("/t/\(tag)/slow/square-\($0).png") }
        let report = await prefetch(photos, with: cache(streams: 40))
        #expect(report.succeeded == 120, "\(report.failures.prefix(3).map(\.error))")
        let seen = try tagged(tag)
        #expect(seen["requests"] == 120)
        #expect(seen["http2"] == 120)
        #expect(seen["connections"] == 1)
        #expect((2...40).contains(seen["maxInFlight"] ?? 0), "\(seen)")
    }

    @Test("without the test CA the server's certificate is refused: verification stays on")
    func verificationStaysOn() async throws {
        let result = await cache(caBundle: nil).result(for: photo("/ok/square-1.png"))
        guard case let .failure(.download(.transport(code, _, _))) = result
        else {
            Issue.record("got \(result)")
            return
        }
        #expect(code == 60, "CURLE_PEER_FAILED_VERIFICATION")
    }

    @Test(
        "a stream reset and a body cut short on an HTTP/2 stream are errors, and nothing is kept",
        arguments: ["rst", "short"])
    func streamFaults(scenario: String) async throws {
        let cache = cache()
        let result = await cache.result(for: photo("/\(scenario)/square-2.png"))
        #expect(throws: ThumbnailError.self) { try result.get() }
        cache.flush()
        #expect(cache.statistics().entries == 0)
        #expect(cache.store.entries().isEmpty)
    }

    @Test("GOAWAY in the middle of a transfer: the retry goes over a new connection and the image is whole")
    func goaway() async throws {
        let cache = cache(retries: RetryPolicy(maximumAttempts: 2, baseDelay: 0.01))
        let path = "/goaway/\(UUID().uuidString)/square-3.png"
        let file = try await cache.result(for: photo(path)).get()
        #expect(try PNGCodec.decode(Data(contentsOf: file)).width == 75)
        #expect(try server.count(of: path) == 2)
    }

    @Test("many requesters of one uncached image over HTTP/2 share one fetch")
    func coalescing() async throws {
        let cache = cache()
        let tag = UUID().uuidString
        let record = photo("/t/\(tag)/slow/square-4.png")
        let files = await withTaskGroup(of: URL?.self) { group in
            for _ in 0..<50 { group.addTask { try? await cache.result(for: record).get() } }
            return await group.reduce(into: Set<URL?>()) { $0.insert($1) }
        }
        #expect(files.count == 1 && files.first! != nil)
        #expect(try tagged(tag)["requests"] == 1)
    }
}
