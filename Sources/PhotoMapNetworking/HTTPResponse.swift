// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A server's answer: the final status (after redirects) and the body, with what libcurl read from
/// the headers for us.
public struct HTTPResponse: Sendable {
    /// The HTTP status of the last response (after redirects).
    public var status: Int
    /// The body as received.
    public var body: Data
    /// `Retry-After` in seconds (libcurl reads both the delta-seconds and the HTTP-date form).
    public var retryAfter: TimeInterval?
    /// The body's `Content-Length`, when the server announced one.
    public var announcedLength: Int?
    /// Whether the answer came over HTTP/2.
    public var isHTTP2: Bool

    /// Creates a response.
    public init(
        status: Int, body: Data = Data(), retryAfter: TimeInterval? = nil, announcedLength: Int? = nil,
        isHTTP2: Bool = false
    ) {
        self.status = status
        self.body = body
        self.retryAfter = retryAfter
        self.announcedLength = announcedLength
        self.isHTTP2 = isHTTP2
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
