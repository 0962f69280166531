// SPDX-License-Identifier: Apache-2.0
import CCurl
import Foundation

/// What one GET needs besides its URL: where redirects may go, how long it may take, how large
/// its body may be, and which CA certificates to trust.
package struct CurlRequest {
    let url: String
    /// `CURLOPT_REDIR_PROTOCOLS_STR`: "https" for https requests (never down to plain http).
    let redirectProtocols: String
    let settings: HTTPSettings
    /// Images are not compressed: asking for gzip would only make the body's length differ from
    /// its Content-Length; Flickr's JSON answers are.
    let acceptsCompression: Bool

    /// What `CurlEasy` sets for this request besides its URL and its body's collector.
    fileprivate struct Options: Equatable {
        let redirectProtocols: String
        let connectMilliseconds: Int
        let totalMilliseconds: Int
        let stallSeconds: Int
        let caBundle: String?
        let acceptsCompression: Bool
    }

    fileprivate var options: Options {
        let timeouts = settings.timeouts
        return Options(
            redirectProtocols: redirectProtocols, connectMilliseconds: Int(timeouts.connect * 1000),
            totalMilliseconds: Int(timeouts.total * 1000), stallSeconds: max(Int(timeouts.stall), 1),
            caBundle: settings.caBundle, acceptsCompression: acceptsCompression)
    }
}

/// One libcurl easy handle, reused across requests so connections stay alive, in the style of
/// swift-corelibs-foundation's `EasyHandle`: named, checked setters; every option that fails to
/// apply stops the request (fail closed). Not Sendable: a handle belongs to one thread at a time —
/// the caller of `perform()`, or the event loop of the multi handle it was added to.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    /// libcurl writes its detailed message here; allocated once, since the handle keeps the pointer.
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var collector = ResponseCollector(maximumBodyBytes: nil)
    private(set) var request: CurlRequest?
    /// The options set on the handle, which stay set from one transfer to the next: nil until all of a
    /// request's options were set (none yet, or one refused).
    private var preparedOptions: CurlRequest.Options?

    /// curl_global_init must run once before any easy or multi handle exists.
    static let globalInitialization: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    init() {
        _ = Self.globalInitialization
        // curl_easy_init fails only when out of memory, where nothing else would work either.
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        self.handle = handle
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Sets every option for `request`; throws when one cannot be set, so no request ever goes out
    /// without its guards (protocols, redirects, timeouts, CA file). A handle whose last request had the
    /// same options keeps them and takes only the new URL: a reset and some twenty options per image were
    /// a twentieth of the event loop's time.
    func prepare(_ request: CurlRequest) throws(HTTPError) {
        errorBuffer[0] = 0
        collector = ResponseCollector(maximumBodyBytes: request.settings.maximumBodyBytes)
        self.request = request
        let options = request.options
        if options != preparedOptions {
            preparedOptions = nil
            try set(options)
            preparedOptions = options
        }
        try set(url: request.url)
        // The handle (which owns the collector) outlives every transfer it runs.
        try check(
            photomap_curl_set_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(collector).toOpaque()),
            CURLOPT_WRITEDATA)
    }

    /// Sets the options on a freshly reset handle.
    private func set(_ options: CurlRequest.Options) throws(HTTPError) {
        // The connection cache survives a reset, so keep-alive still works.
        curl_easy_reset(handle)
        // Only http(s), for the first URL and for every redirect: never file://, ftp:// or the like.
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, options.redirectProtocols)
        try set(CURLOPT_FOLLOWLOCATION, 1)
        try set(CURLOPT_MAXREDIRS, 5)
        try set(CURLOPT_NOSIGNAL, 1)  // timeouts without SIGALRM, safe with threads
        try set(CURLOPT_CONNECTTIMEOUT_MS, options.connectMilliseconds)
        try set(CURLOPT_TIMEOUT_MS, options.totalMilliseconds)
        // A server that stalls mid-body is cut off long before the total timeout.
        try set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try set(CURLOPT_LOW_SPEED_TIME, options.stallSeconds)
        // HTTP/2 where TLS's ALPN offers it, HTTP/1.1 in cleartext (no h2c unless asked for).
        try set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        // On a multi handle: wait for a connection that can multiplex rather than open another.
        try set(CURLOPT_PIPEWAIT, 1)
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        if let bundle = options.caBundle { try set(CURLOPT_CAINFO, bundle) }
        if options.acceptsCompression { try set(CURLOPT_ACCEPT_ENCODING, "") }
        try set(CURLOPT_USERAGENT, HTTPClient.userAgent)
        try check(photomap_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), CURLOPT_ERRORBUFFER)
        try check(
            photomap_curl_set_callback(
                handle, CURLOPT_WRITEFUNCTION,
                { data, size, count, context in
                    guard let data, let context else { return 0 }
                    let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
                    return collector.append(UnsafeRawBufferPointer(start: data, count: size * count))
                }), CURLOPT_WRITEFUNCTION)
    }

    /// Runs the prepared request on this thread, blocking until it ends.
    func perform() -> Result<HTTPResponse, HTTPError> {
        outcome(curl_easy_perform(handle))
    }

    /// The response, or the error, of a transfer that ended with `code` (from `perform()` or the multi handle).
    func outcome(_ code: CURLcode) -> Result<HTTPResponse, HTTPError> {
        guard code == CURLE_OK else {
            // Made only for an error: a success names no URL.
            let url = HTTPError.redacted(request?.url ?? "")
            if collector.exceededLimit {
                return .failure(
                    .transport(
                        code: Int(CURLE_WRITE_ERROR.rawValue),
                        message: "the answer is larger than \(collector.maximumBodyBytes ?? 0) bytes", url: url))
            }
            let detail = String(cString: errorBuffer)
            return .failure(
                .transport(
                    code: Int(code.rawValue),
                    message: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail,
                    url: url))
        }
        var status = 0, version = 0
        var retryAfter: curl_off_t = 0, announced: curl_off_t = -1
        photomap_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        photomap_curl_get_long(handle, CURLINFO_HTTP_VERSION, &version)
        // libcurl reads Retry-After in both its forms (seconds, or an HTTP date) for us.
        photomap_curl_get_offset(handle, CURLINFO_RETRY_AFTER, &retryAfter)
        photomap_curl_get_offset(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced)
        // libcurl passes any number through: a hostile server's is capped at a day (far beyond any wait honoured).
        return .success(
            HTTPResponse(
                status: status, body: collector.body,
                retryAfter: retryAfter > 0 ? TimeInterval(min(retryAfter, 86_400)) : nil,
                announcedLength: announced >= 0 ? Int(announced) : nil,
                isHTTP2: version == CURL_HTTP_VERSION_2_0))
    }

    private func set(url: String) throws(HTTPError) {
        guard photomap_curl_set_string(handle, CURLOPT_URL, url) == CURLE_OK else {
            throw .unsupportedURL(HTTPError.redacted(url))
        }
    }

    private func set(_ option: CURLoption, _ value: String) throws(HTTPError) {
        try check(photomap_curl_set_string(handle, option, value), option)
    }

    private func set(_ option: CURLoption, _ value: Int) throws(HTTPError) {
        try check(photomap_curl_set_long(handle, option, value), option)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPError) {
        guard code == CURLE_OK else {
            throw .optionRefused(option: Int(option.rawValue), message: String(cString: curl_easy_strerror(code)))
        }
    }
}

/// Collects one transfer's body from libcurl's write callback, up to a limit.
private final class ResponseCollector {
    private(set) var body = Data()
    private(set) var exceededLimit = false
    let maximumBodyBytes: Int?

    init(maximumBodyBytes: Int?) {
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Returns the bytes taken; fewer than offered makes libcurl abort the transfer.
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        if let maximumBodyBytes, body.count + bytes.count > maximumBodyBytes {
            exceededLimit = true
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }
}
