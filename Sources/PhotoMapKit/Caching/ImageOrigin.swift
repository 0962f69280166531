// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapNetworking
import PhotoMapSupport

/// Where thumbnail bytes come from.
public protocol ImageOrigin: Sendable {
    /// Fetches the complete body at `url` (never a partial one). `completion` runs once, on any
    /// thread (possibly before `fetch` returns), and must return quickly: it hands the bytes on.
    func fetch(_ url: String, completion: @escaping @Sendable (Result<Data, ThumbnailError>) -> Void)
}

/// Images over HTTP(S) through one libcurl multi handle on its own thread: HTTP/2 multiplexed where
/// the server offers it, connections reused for the origin's lifetime; 2xx only, the body's length
/// checked against its Content-Length.
public final class HTTPImageOrigin: ImageOrigin {
    /// Retries, timeouts, CA file and size limit for each image.
    public let settings: HTTPSettings
    private let limits: CurlMultiLoop.Limits
    /// Made by the first fetch: a run answered from the cache starts no thread and never loads TLS.
    private let loop = Locked<CurlMultiLoop?>(nil)

    /// The limits images are fetched with by default.
    public static let defaultSettings = HTTPSettings(
        retryPolicy: RetryPolicy(maximumAttempts: 3),
        timeouts: HTTPTimeouts(connect: 10, total: 60, stall: 10),
        maximumBodyBytes: 40 << 20)

    /// Creates an origin: at most `connectionsPerHost` connections to a host, and over HTTP/2 at most
    /// `streamsPerConnection` images on one connection at once.
    public init(
        settings: HTTPSettings = HTTPImageOrigin.defaultSettings, connectionsPerHost: Int = 8,
        streamsPerConnection: Int = 100
    ) {
        self.settings = settings
        limits = .init(
            connectionsPerHost: max(connectionsPerHost, 1),
            streamsPerConnection: max(streamsPerConnection, 1))
    }

    /// Creates an origin with these retries and timeouts, and the default limits otherwise.
    public convenience init(
        retryPolicy: RetryPolicy,
        timeouts: HTTPTimeouts = HTTPImageOrigin.defaultSettings.timeouts
    ) {
        var settings = Self.defaultSettings
        settings.retryPolicy = retryPolicy
        settings.timeouts = timeouts
        self.init(settings: settings)
    }

    public func fetch(_ url: String, completion: @escaping @Sendable (Result<Data, ThumbnailError>) -> Void) {
        // The URL without its query, made only for an error.
        let redacted: @Sendable () -> String = { HTTPError.redacted(url) }
        guard let request = settings.request(url, acceptsCompression: false)
        else { return completion(.failure(.unsupportedURL(redacted()))) }
        let loop = loop.withLock { loop in
            if let loop { return loop }
            let started = CurlMultiLoop(limits: limits)
            loop = started
            return started
        }
        loop.submit(request) { outcome in
            completion(
                outcome.mapError { error -> ThumbnailError in
                    if case .unsupportedURL = error { return .unsupportedURL(redacted()) }
                    return .download(error)
                }.flatMap { response in
                    if let announced = response.announcedLength, announced != response.body.count {
                        return .failure(
                            .lengthMismatch(url: redacted(), expected: announced, received: response.body.count))
                    }
                    return .success(response.body)
                })
        }
    }
}

/// No image from anywhere (`--offline`): every fetch fails at once with `ThumbnailError.offline`, so the
/// cache answers from what it holds and nothing goes out.
public struct OfflineImageOrigin: ImageOrigin {
    /// An origin that fetches nothing.
    public init() {}

    public func fetch(_ url: String, completion: @escaping @Sendable (Result<Data, ThumbnailError>) -> Void) {
        completion(.failure(.offline(url: HTTPError.redacted(url))))
    }
}

/// The embedded catalog's images, read from `Fixtures/images` where their Flickr URLs' paths point.
public struct FixtureImageOrigin: ImageOrigin {
    /// The folder the generator writes (`Fixtures/images`).
    public let folder: URL
    /// The host the catalog's URLs name.
    public let host: ImageHost

    /// Creates an origin over the images folder.
    public init(folder: URL, host: ImageHost = .flickr) {
        self.folder = folder
        self.host = host
    }

    /// Reads the file on the caller's thread: a small local read, cheaper than a hop elsewhere.
    public func fetch(_ url: String, completion: @escaping @Sendable (Result<Data, ThumbnailError>) -> Void) {
        guard let file = file(for: url) else { return completion(.failure(.unsupportedURL(HTTPError.redacted(url)))) }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return completion(.failure(.catalog(.catalogUnreadable(path: file.path, reason: "the image is missing"))))
        }
        completion(.success(data))
    }

    /// The file a catalog URL names, or nil for a URL elsewhere or a path that would leave the folder.
    public func file(for url: String) -> URL? {
        guard url.hasPrefix(host.base + "/") else { return nil }
        let components = url.dropFirst(host.base.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        let safe =
            !components.isEmpty
            && components.allSatisfy { part in
                !part.isEmpty && part != ".." && part != "."
                    && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
            }
        return safe ? components.reduce(folder) { $0.appendingPathComponent(String($1)) } : nil
    }
}
