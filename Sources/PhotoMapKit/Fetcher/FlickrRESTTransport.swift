// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapNetworking
import PhotoMapSupport

/// Flickr's REST endpoint over libcurl: `GET {endpoint}?method=…&api_key=…&format=json&nojsoncallback=1`,
/// with answers kept in an `AnswerStore` (flickr.photos.search's as growing listings, `ListingCache`)
/// and every try, retries included, paced by a `FlickrRateLimiter`.
public final class FlickrRESTTransport: FlickrTransport, Sendable {
    /// Flickr's production endpoint.
    public static let defaultEndpoint = "https://api.flickr.com/services/rest/"

    private let endpoint: String
    private let apiKey: String
    private let cache: (any AnswerStore)?
    private let offline: Bool
    private let limiter: FlickrRateLimiter?
    private let warn: @Sendable (String) -> Void
    /// Calls from several threads go out side by side, each on a handle of its own.
    private let client: HTTPClient
    /// Whether a kept answer has stood in for an unreachable Flickr: said once a process.
    private let saidStale = Locked(false)

    /// Creates a transport; with `offline`, only the cache answers. With a `limiter`, every try waits for
    /// its token; a retry first waits what the server asked (Retry-After), then for its token.
    public init(
        endpoint: String = FlickrRESTTransport.defaultEndpoint, apiKey: String, cache: (any AnswerStore)?,
        offline: Bool = false, client: HTTPClient = HTTPClient(), limiter: FlickrRateLimiter? = nil,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        guard !apiKey.isEmpty || offline else { throw FlickrError.missingAPIKey }
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.cache = cache
        self.offline = offline
        self.limiter = limiter
        self.warn = warn
        self.client = client
    }

    /// Flickr answers this code ("Service currently unavailable") with HTTP 200: a 503 in disguise.
    static let serviceUnavailableCode = 105
    /// No Flickr answer is anywhere near this size; a larger body is refused unread.
    static let maximumAnswerBytes = 16 << 20

    /// The answer's JSON: from the cache when fresh (or, offline, of any age), else from Flickr.
    public func call(method: String, parameters: [String: String]) throws -> Data {
        let query = parameters.sorted { $0.key < $1.key }
        let kept = KeptAnswer(endpoint: endpoint, method: method, parameters: query, cache: cache)
        let miss: KeptMiss
        switch kept.answer(allowStale: offline) {
        case let .success(cached): return cached
        case let .failure(reason): miss = reason
        }
        if offline {
            guard miss == .damaged, let cache else { throw FlickrError.notCached(method: method) }
            throw FlickrError.cachedAnswerDamaged(method: method, key: SHA256.hex(kept.key), store: cache.description)
        }

        let url = requestURL(method: method, parameters: query)
        let response: HTTPResponse
        do {
            response = try fetch(url)
        } catch let error as HTTPError where error.isNoNetwork {
            // Out of reach: an older kept answer is better than none, said once.
            guard case let .success(stale) = kept.answer(allowStale: true) else { throw error }
            let first = saidStale.withLock { said in
                defer { said = true }
                return !said
            }
            if first {
                warn("Flickr is out of reach (\(error)); answering from the cache's older answers")
            }
            return stale
        }
        if FlickrSource.status(of: response.body)?.stat == "ok" {
            do {
                try kept.keep(response.body)
            } catch {
                warn("could not keep Flickr's answer in \(cache?.description ?? "the cache"): \(error)")
            }
        }
        return response.body
    }

    /// GETs `url`, each try (retries are calls too) made when the rate allows; Flickr's code 105, which
    /// arrives with status 200, is retried as a 503 is.
    private func fetch(_ url: String) throws -> HTTPResponse {
        try client.get(
            url, maximumBodyBytes: Self.maximumAnswerBytes,
            isBusy: { FlickrSource.status(of: $0.body)?.code?.int == Self.serviceUnavailableCode },
            beforeEachTry: { try limiter?.acquire() })
    }

    /// The request URL as Flickr's REST format documents it.
    func requestURL(method: String, parameters: [(key: String, value: String)]) -> String {
        let fixed = [("method", method), ("api_key", apiKey), ("format", "json"), ("nojsoncallback", "1")]
        let query = (fixed + parameters.map { ($0.key, $0.value) })
            .map { "\(URLText.percentEncoded($0.0))=\(URLText.percentEncoded($0.1))" }
            .joined(separator: "&")
        return endpoint + (endpoint.contains("?") ? "&" : "?") + query
    }

}

/// Why the cache could not answer a request.
enum KeptMiss: Error, Equatable {
    /// Nothing is kept for it (or not all of it, or nothing fresh enough).
    case absent
    /// What is kept does not read back: a damaged file or row.
    case damaged
}

/// Where one request's answer is kept: flickr.photos.search's in its query's listing (any page size
/// answers from it), every other method's under the request itself.
struct KeptAnswer {
    let cache: (any AnswerStore)?
    let key: String
    /// Set for flickr.photos.search: the page asked for.
    let paging: (page: Int, perPage: Int)?

    init(endpoint: String, method: String, parameters: [(key: String, value: String)], cache: (any AnswerStore)?) {
        self.cache = cache
        let value = { (name: String) in parameters.first { $0.key == name }.flatMap { Int($0.value) } }
        if method == "flickr.photos.search" {
            key = ListingCache.key(endpoint: endpoint, method: method, parameters: parameters)
            paging = (value("page") ?? 1, value("per_page") ?? 100)
        } else {
            key =
                ([HTTPError.redacted(endpoint), method]
                + parameters.map { "\($0.key)=\($0.value)" }).joined(separator: "\n")
            paging = nil
        }
    }

    /// The kept answer when fresh (or of any age, `allowStale`); a damaged one is a miss, and removed (a
    /// listing's is replaced by the next page kept).
    func answer(allowStale: Bool) -> Result<Data, KeptMiss> {
        guard let cache else { return .failure(.absent) }
        if let paging {
            return ListingCache(store: cache).answer(
                page: paging.page, perPage: paging.perPage, key: key,
                allowStale: allowStale)
        }
        guard let cached = cache.answer(for: key, allowStale: allowStale) else { return .failure(.absent) }
        if FlickrSource.status(of: cached)?.stat == "ok" { return .success(cached) }
        cache.remove(key)
        return .failure(.damaged)
    }

    /// Keeps a successful answer.
    func keep(_ answer: Data) throws {
        guard let cache else { return }
        if let paging {
            try ListingCache(store: cache).keep(answer, page: paging.page, perPage: paging.perPage, key: key)
        } else {
            try cache.store(answer, for: key)
        }
    }
}
