import Foundation

/// A server's answer: the final status, its headers and the body.
public struct HTTPResponse: Sendable {
    /// The HTTP status of the last response (after redirects).
    public var status: Int
    /// Header fields of the last response, names lowercased.
    public var headers: [String: String]
    /// The body as received.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// `Retry-After` in seconds (the delta-seconds form, or an HTTP date), when present.
    public var retryAfter: TimeInterval? {
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return TimeInterval(max(seconds, 0)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max($0.timeIntervalSinceNow, 0) }
    }
}
