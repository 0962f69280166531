import Foundation

/// Flickr's REST endpoint over libcurl: `GET {endpoint}?method=…&api_key=…&format=json&nojsoncallback=1`,
/// with answers kept in a `ResponseCache`.
public final class FlickrRESTTransport: FlickrTransport, @unchecked Sendable {
    /// Flickr's production endpoint.
    public static let defaultEndpoint = "https://api.flickr.com/services/rest/"

    private let endpoint: String
    private let apiKey: String
    private let cache: ResponseCache?
    private let offline: Bool
    private let warn: @Sendable (String) -> Void
    // The client's curl handle is used by one call at a time; the lock serialises callers.
    private let client: HTTPClient
    private let lock = NSLock()

    /// Creates a transport; with `offline`, only the cache answers.
    public init(endpoint: String = FlickrRESTTransport.defaultEndpoint, apiKey: String, cache: ResponseCache?,
                offline: Bool = false, client: HTTPClient = HTTPClient(),
                warn: @escaping @Sendable (String) -> Void = { _ in }) throws {
        guard !apiKey.isEmpty || offline else { throw FlickrError.missingAPIKey }
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.cache = cache
        self.offline = offline
        self.client = client
        self.warn = warn
    }

    /// Flickr answers this code ("Service currently unavailable") with HTTP 200: a 503 in disguise.
    static let serviceUnavailableCode = 105
    /// No Flickr answer is anywhere near this size; a larger body is refused unread.
    static let maximumAnswerBytes = 16 << 20

    /// The answer's JSON: from the cache when fresh (or, offline, of any age), else from Flickr.
    public func call(method: String, parameters: [String: String]) throws -> Data {
        let query = parameters.sorted { $0.key < $1.key }
        let key = ([HTTPError.redacted(endpoint), method] + query.map { "\($0.key)=\($0.value)" }).joined(separator: "\n")
        if let cached = cache?.answer(for: key, allowStale: offline) {
            if FlickrSource.status(of: cached)?.stat == "ok" { return cached }
            cache?.remove(key)  // damaged on disk: a miss
        }
        if offline { throw FlickrError.notCached(method: method) }

        let url = requestURL(method: method, parameters: query)
        let response = try lock.withLock { try fetch(url) }
        if let cache, FlickrSource.status(of: response.body)?.stat == "ok" {
            do {
                try cache.store(response.body, for: key)
            } catch {
                warn("could not keep Flickr's answer in the cache at \(cache.directory.path): \(error.localizedDescription)")
            }
        }
        return response.body
    }

    /// GETs `url`, also retrying Flickr's code 105, which arrives with status 200.
    private func fetch(_ url: String) throws -> HTTPResponse {
        var attempt = 1
        while true {
            let response = try client.get(url, maximumBodyBytes: Self.maximumAnswerBytes)
            guard FlickrSource.status(of: response.body)?.code?.int == Self.serviceUnavailableCode,
                  attempt < client.retryPolicy.maximumAttempts else { return response }
            client.sleep(client.retryPolicy.delay(afterAttempt: attempt, retryAfter: response.retryAfter))
            attempt += 1
        }
    }

    /// The request URL as Flickr's REST format documents it.
    func requestURL(method: String, parameters: [(key: String, value: String)]) -> String {
        let fixed = [("method", method), ("api_key", apiKey), ("format", "json"), ("nojsoncallback", "1")]
        let query = (fixed + parameters.map { ($0.key, $0.value) })
            .map { "\(Self.percentEncoded($0.0))=\(Self.percentEncoded($0.1))" }
            .joined(separator: "&")
        return endpoint + (endpoint.contains("?") ? "&" : "?") + query
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
