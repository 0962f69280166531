import Foundation

/// Blocking GET requests over one reused libcurl easy handle, with retries: for Flickr's REST calls,
/// which page one after another. (Images go through `CurlMultiLoop`.) Not Sendable: it owns the handle.
public final class HTTPClient {
    /// Identifies photomap to servers, as Flickr's and OpenStreetMap's policies ask.
    public static let userAgent = "photomap/0.1 (+https://github.com/photomap)"

    /// Retries, timeouts and trust for every request.
    public var settings: HTTPSettings
    /// When to retry.
    public var retryPolicy: RetryPolicy { settings.retryPolicy }
    private let easy = CurlEasy()
    /// How the client waits between tries (tests record instead of sleeping).
    let sleep: (TimeInterval) -> Void

    /// Creates a client; `sleep` is how it waits between tries.
    public init(settings: HTTPSettings = HTTPSettings(),
                sleep: @escaping (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }) {
        self.settings = settings
        self.sleep = sleep
    }

    /// Creates a client with these retries and timeouts.
    public convenience init(retryPolicy: RetryPolicy, timeouts: HTTPTimeouts = HTTPTimeouts(),
                            sleep: @escaping (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }) {
        self.init(settings: HTTPSettings(retryPolicy: retryPolicy, timeouts: timeouts), sleep: sleep)
    }

    /// GETs `url`, retrying transient failures; throws unless the final status is 2xx.
    public func get(_ url: String, maximumBodyBytes: Int? = nil) throws(HTTPError) -> HTTPResponse {
        var settings = settings
        settings.maximumBodyBytes = maximumBodyBytes ?? settings.maximumBodyBytes
        guard let request = settings.request(url, acceptsCompression: true) else { throw .unsupportedURL(HTTPError.redacted(url)) }
        var attempt = 1
        while true {
            try easy.prepare(request)
            switch settings.retryPolicy.decide(easy.perform(), attempt: attempt, url: url) {
            case let .finish(outcome): return try outcome.get()
            case let .retry(after: delay): sleep(delay)
            }
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
