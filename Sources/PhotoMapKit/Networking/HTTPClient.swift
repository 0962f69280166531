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
        guard let request = settings.request(url, acceptsCompression: true)
        else { throw .unsupportedURL(HTTPError.redacted(url)) }
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
        // The common case decided on the bytes: a lowercase scheme, a lowercase host (and port), and only
        // characters a URL may hold as they are (no escapes, no user info). Anything else is parsed.
        // (No array of prefixes to loop over: an export asks this four times per photo.)
        let bytes = url.utf8
        let secure = bytes.starts(with: "https://".utf8)
        if secure || bytes.starts(with: "http://".utf8) {
            let rest = bytes.dropFirst(secure ? 8 : 7)
            let host = rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
            let name = host.prefix { $0 != UInt8(ascii: ":") }, port = host.dropFirst(name.count).dropFirst()
            if !name.isEmpty, name.allSatisfy(isPlainHostByte), port.allSatisfy({ (0x30...0x39).contains($0) }),
               port.isEmpty == (name.count == host.count), rest.allSatisfy(isPlainURLByte) {
                return secure ? "https" : "http"
            }
        }
        guard let components = URLComponents(string: url), components.host?.isEmpty == false,
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        return scheme
    }

    private static func isPlainHostByte(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "-")
    }

    /// RFC 3986's unreserved and reserved characters, less "%" (an escape to check), "@" (user info)
    /// and brackets (an IPv6 host).
    private static func isPlainURLByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39: true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"),
             UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "!"), UInt8(ascii: "$"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
             UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="): true
        default: false
        }
    }
}
