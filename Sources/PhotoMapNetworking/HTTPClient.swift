// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Blocking GET requests with retries, for Flickr's REST calls (images go through `CurlMultiLoop`).
/// Callers on several threads go side by side: each call takes a libcurl easy handle of its own from
/// the client's idle ones (reused, so connections stay alive), and puts it back when done. Nothing is
/// locked across a transfer or a retry's wait.
public final class HTTPClient: Sendable {
    /// Identifies photomap and its version to servers, as Flickr's and OpenStreetMap's policies ask.
    public static let userAgent = "photomap/\(PhotoMapVersion.current)"
    /// Idle handles kept for reuse; past it, a handle put back is closed (its connection with it).
    static let maximumIdleHandles = 8

    /// Retries, timeouts and trust for every request.
    public let settings: HTTPSettings
    private let idle = IdleResources<CurlEasy>(keep: HTTPClient.maximumIdleHandles)
    /// How the client waits between tries (tests record instead of sleeping).
    private let sleep: @Sendable (TimeInterval) -> Void

    /// Creates a client; `sleep` is how it waits between tries.
    public init(
        settings: HTTPSettings = HTTPSettings(),
        sleep: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }
    ) {
        self.settings = settings
        self.sleep = sleep
    }

    /// Creates a client with these retries and timeouts.
    public convenience init(
        retryPolicy: RetryPolicy, timeouts: HTTPTimeouts = HTTPTimeouts(),
        sleep: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }
    ) {
        self.init(settings: HTTPSettings(retryPolicy: retryPolicy, timeouts: timeouts), sleep: sleep)
    }

    /// GETs `url`, retrying transient failures and answers `isBusy` names (`RetryPolicy.decide`); throws
    /// unless the final status is 2xx. `beforeEachTry` runs as each try is made, after any wait: a try
    /// is a call against a budget, and one it throws from is not made.
    public func get(
        _ url: String, maximumBodyBytes: Int? = nil, isBusy: (HTTPResponse) -> Bool = { _ in false },
        beforeEachTry: () throws -> Void = {}
    ) throws -> HTTPResponse {
        var settings = settings
        settings.maximumBodyBytes = maximumBodyBytes ?? settings.maximumBodyBytes
        guard let request = settings.request(url, acceptsCompression: true)
        else { throw HTTPError.unsupportedURL(HTTPError.redacted(url)) }
        let easy = idle.take() ?? CurlEasy()
        defer { idle.putBack(easy) }
        var attempt = 1
        while true {
            try beforeEachTry()
            try easy.prepare(request)
            switch settings.retryPolicy.decide(easy.perform(), attempt: attempt, url: url, isBusy: isBusy) {
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
        // (An export asks this four times per photo, a cache hit once: the bytes are walked by index.)
        if let plain = url.utf8.withContiguousStorageIfAvailable(plainScheme), let plain { return plain }
        guard let components = URLComponents(string: url), components.host?.isEmpty == false,
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return scheme
    }

    /// "http" or "https" for a URL whose bytes make it plainly one (see `scheme(of:)`), else nil.
    private static func plainScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let secure = bytes.starts(with: "https://".utf8)
        guard secure || bytes.starts(with: "http://".utf8) else { return nil }
        var index = secure ? 8 : 7
        let nameStart = index
        while index < bytes.count, isPlainHostByte(bytes[index]) { index += 1 }
        guard index > nameStart else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            let portStart = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > portStart else { return nil }
        }
        // The host ends the URL, or a path, query or fragment follows it.
        guard
            index == bytes.count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?")
                || bytes[index] == UInt8(ascii: "#")
        else { return nil }
        while index < bytes.count {
            guard isPlainURLByte(bytes[index]) else { return nil }
            index += 1
        }
        return secure ? "https" : "http"
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
            UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default: false
        }
    }
}
