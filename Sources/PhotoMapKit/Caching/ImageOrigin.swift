import Foundation

/// Where thumbnail bytes come from. Each download worker gets its own fetcher, so connections
/// (and curl handles) are reused by one thread at a time.
public protocol ImageOrigin: Sendable {
    /// A fetcher for one worker.
    func makeFetcher() -> any ImageFetcher
}

/// Fetches image bytes; used by one thread at a time.
public protocol ImageFetcher {
    /// The complete body at `url`, or an error (never a partial body).
    func fetch(_ url: String) throws(ThumbnailError) -> Data
}

/// Images over HTTP(S) with libcurl: 2xx only, body length checked against Content-Length.
public struct HTTPImageOrigin: ImageOrigin {
    /// Retries for each image.
    public var retryPolicy: RetryPolicy
    /// Timeouts for each image.
    public var timeouts: HTTPTimeouts
    /// Larger bodies are refused without being read to the end.
    public var maximumBytes: Int

    /// Creates an origin.
    public init(retryPolicy: RetryPolicy = RetryPolicy(maximumAttempts: 3), timeouts: HTTPTimeouts = HTTPTimeouts(connect: 10, total: 60, stall: 10),
                maximumBytes: Int = 40 << 20) {
        self.retryPolicy = retryPolicy
        self.timeouts = timeouts
        self.maximumBytes = maximumBytes
    }

    public func makeFetcher() -> any ImageFetcher {
        Fetcher(client: HTTPClient(retryPolicy: retryPolicy, timeouts: timeouts), maximumBytes: maximumBytes)
    }

    private struct Fetcher: ImageFetcher {
        let client: HTTPClient
        let maximumBytes: Int

        func fetch(_ url: String) throws(ThumbnailError) -> Data {
            let response: HTTPResponse
            do {
                response = try client.get(url, maximumBodyBytes: maximumBytes)
            } catch let error as HTTPError {
                throw error == .unsupportedURL(HTTPError.redacted(url)) ? .unsupportedURL(HTTPError.redacted(url)) : .download(error)
            } catch {
                throw .download(.transport(code: -1, message: "\(error)", url: HTTPError.redacted(url)))
            }
            // curl decodes gzip bodies, whose length then differs from Content-Length: compare only plain bodies.
            if let announced = response.headers["content-length"].flatMap(Int.init), response.headers["content-encoding"] == nil,
               announced != response.body.count {
                throw .lengthMismatch(url: HTTPError.redacted(url), expected: announced, received: response.body.count)
            }
            return response.body
        }
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

    public func makeFetcher() -> any ImageFetcher { Fetcher(origin: self) }

    /// The file a catalog URL names, or nil for a URL elsewhere or a path that would leave the folder.
    public func file(for url: String) -> URL? {
        guard url.hasPrefix(host.base + "/") else { return nil }
        let components = url.dropFirst(host.base.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        let safe = !components.isEmpty && components.allSatisfy { part in
            !part.isEmpty && part != ".." && part != "." && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }
        }
        return safe ? components.reduce(folder) { $0.appendingPathComponent(String($1)) } : nil
    }

    private struct Fetcher: ImageFetcher {
        let origin: FixtureImageOrigin

        func fetch(_ url: String) throws(ThumbnailError) -> Data {
            guard let file = origin.file(for: url) else { throw .unsupportedURL(HTTPError.redacted(url)) }
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw .fixtureImageMissing(path: file.path)
            }
            return data
        }
    }
}
