import Foundation

/// How long a request may take.
public struct HTTPTimeouts: Sendable {
    /// To establish the connection.
    public var connect: TimeInterval
    /// For the whole transfer.
    public var total: TimeInterval
    /// Without receiving a byte, once connected.
    public var stall: TimeInterval

    /// Creates timeouts.
    public init(connect: TimeInterval = 10, total: TimeInterval = 60, stall: TimeInterval = 15) {
        self.connect = connect
        self.total = total
        self.stall = stall
    }
}

/// GET requests over libcurl with retries. Not Sendable: it owns one reusable curl handle.
public final class HTTPClient {
    /// Identifies photomap to servers, as Flickr's and OpenStreetMap's policies ask.
    public static let userAgent = "photomap/0.1 (+https://github.com/photomap)"

    /// When to retry.
    public var retryPolicy: RetryPolicy
    /// How long to wait.
    public var timeouts: HTTPTimeouts
    private let easy = CurlEasy()
    /// How the client waits between tries (tests record instead of sleeping).
    let sleep: (TimeInterval) -> Void

    /// Creates a client; `sleep` is how it waits between tries.
    public init(retryPolicy: RetryPolicy = RetryPolicy(), timeouts: HTTPTimeouts = HTTPTimeouts(),
                sleep: @escaping (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }) {
        self.retryPolicy = retryPolicy
        self.timeouts = timeouts
        self.sleep = sleep
    }

    /// GETs `url`, retrying transient failures; throws unless the final status is 2xx.
    public func get(_ url: String, maximumBodyBytes: Int? = nil) throws -> HTTPResponse {
        guard let scheme = Self.scheme(of: url) else { throw HTTPError.unsupportedURL(HTTPError.redacted(url)) }
        var attempt = 1
        while true {
            let outcome: Result<HTTPResponse, HTTPError>
            do {
                // An https request never follows a redirect down to plain http.
                outcome = .success(try easy.get(url, redirectProtocols: scheme == "https" ? "https" : "http,https",
                                                timeouts: timeouts, maximumBodyBytes: maximumBodyBytes))
            } catch let error as HTTPError {
                outcome = .failure(error)
            }
            let retryAfter: TimeInterval?
            switch outcome {
            case let .success(response) where response.isSuccess:
                return response
            case let .success(response):
                let failure = HTTPError.status(response.status, url: HTTPError.redacted(url))
                guard RetryPolicy.isTransient(status: response.status), attempt < retryPolicy.maximumAttempts else {
                    throw failure
                }
                retryAfter = response.retryAfter
                if let retryAfter, retryAfter > retryPolicy.maximumDelay {
                    throw HTTPError.retryAfterTooLong(seconds: Int(retryAfter), url: HTTPError.redacted(url))
                }
            case let .failure(error):
                guard RetryPolicy.isTransient(error), attempt < retryPolicy.maximumAttempts else { throw error }
                retryAfter = nil
            }
            sleep(retryPolicy.delay(afterAttempt: attempt, retryAfter: retryAfter))
            attempt += 1
        }
    }

    /// "http" or "https" when `url` is one photomap may fetch; nil for file:, ftp: and the rest.
    public static func scheme(of url: String) -> String? {
        guard let components = URLComponents(string: url), components.host?.isEmpty == false,
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return scheme
    }
}
