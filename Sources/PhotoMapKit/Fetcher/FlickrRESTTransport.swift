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

    public func call(method: String, parameters: [String: String]) throws -> Data {
        let query = parameters.sorted { $0.key < $1.key }
        let key = ([HTTPError.redacted(endpoint), method] + query.map { "\($0.key)=\($0.value)" }).joined(separator: "\n")
        if let cached = cache?.answer(for: key, allowStale: offline) { return cached }
        if offline { throw FlickrError.notCached(method: method) }

        let url = requestURL(method: method, parameters: query)
        let response = try lock.withLock { try client.get(url) }
        if let cache, FlickrSource.isOK(response.body) {
            do {
                try cache.store(response.body, for: key)
            } catch {
                warn("could not keep Flickr's answer in the cache at \(cache.directory.path): \(error.localizedDescription)")
            }
        }
        return response.body
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
