// SPDX-License-Identifier: Apache-2.0
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

/// How photomap's requests go out, the same for Flickr's REST calls and the image engine.
public struct HTTPSettings: Sendable {
    /// When to try again.
    public var retryPolicy: RetryPolicy
    /// How long to wait.
    public var timeouts: HTTPTimeouts
    /// A PEM file of CA certificates trusted instead of the system's (`--cacert`, `CURL_CA_BUNDLE`,
    /// `SSL_CERT_FILE`): for TLS-inspecting proxies and test CAs. Verification always stays on.
    public var caBundle: String?
    /// Larger bodies are refused without being read to the end.
    public var maximumBodyBytes: Int?

    /// Creates settings.
    public init(
        retryPolicy: RetryPolicy = RetryPolicy(), timeouts: HTTPTimeouts = HTTPTimeouts(),
        caBundle: String? = nil,
        maximumBodyBytes: Int? = nil
    ) {
        self.retryPolicy = retryPolicy
        self.timeouts = timeouts
        self.caBundle = caBundle
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// The request for `url` with these settings; nil for a URL photomap never fetches (file:, ftp:, …).
    package func request(_ url: String, acceptsCompression: Bool) -> CurlRequest? {
        guard let scheme = HTTPClient.scheme(of: url) else { return nil }
        // An https request never follows a redirect down to plain http.
        return CurlRequest(
            url: url, redirectProtocols: scheme == "https" ? "https" : "http,https", settings: self,
            acceptsCompression: acceptsCompression)
    }
}
