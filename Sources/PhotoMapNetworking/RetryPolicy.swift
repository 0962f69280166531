// SPDX-License-Identifier: Apache-2.0
import Foundation

/// When to try a request again, and how long to wait first: 5xx, 429, timeouts and connection
/// failures are retried with exponential backoff, honouring the server's Retry-After.
public struct RetryPolicy: Sendable {
    /// Tries in all, the first included.
    public var maximumAttempts: Int
    /// The wait before the second try; it doubles for each try after.
    public var baseDelay: TimeInterval
    /// The longest Retry-After photomap will honour; a longer one ends the retries.
    public var maximumDelay: TimeInterval

    /// Creates a policy.
    public init(maximumAttempts: Int = 4, baseDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 30) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// No retries at all.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// Whether a response with this status may succeed when tried again.
    public static func isTransient(status: Int) -> Bool {
        status == 429 || (500..<600).contains(status)
    }

    /// Connection refused, reset, timed out, empty reply, TLS handshake failed, HTTP/2 stream or
    /// connection lost (RST_STREAM, GOAWAY): worth another try.
    public static func isTransient(_ error: HTTPError) -> Bool {
        guard case let .transport(code, _, _) = error else { return false }
        // CURLE_COULDNT_CONNECT 7, HTTP2 16, PARTIAL_FILE 18, OPERATION_TIMEDOUT 28, SSL_CONNECT_ERROR 35,
        // GOT_NOTHING 52, SEND_ERROR 55, RECV_ERROR 56, HTTP2_STREAM 92.
        return [7, 16, 18, 28, 35, 52, 55, 56, 92].contains(code)
    }

    /// The wait before try `attempt + 1` (attempts count from 1), honouring `retryAfter` up to
    /// `maximumDelay` (the one place a wait is capped).
    public func delay(afterAttempt attempt: Int, retryAfter: TimeInterval?) -> TimeInterval {
        if let retryAfter { return min(max(retryAfter, 0), maximumDelay) }
        let exponential = baseDelay * pow(2, Double(attempt - 1))
        // Jitter spreads out clients that failed together, so they do not retry together.
        return min(exponential * Double.random(in: 0.8...1.2), maximumDelay)
    }

    /// What to do after try `attempt` of `url` ended with `outcome`: finish with a 2xx response or an
    /// error, or try again after a wait. The blocking client and the event loop both decide here.
    /// `isBusy` names 2xx answers that say "try later" in their body (Flickr's code 105): retried as a
    /// 503 is while tries remain and the wait asked is one photomap honours; else handed back as it is,
    /// for the caller to report.
    package func decide(
        _ outcome: Result<HTTPResponse, HTTPError>, attempt: Int, url: String,
        isBusy: (HTTPResponse) -> Bool = { _ in false }
    ) -> RetryDecision {
        switch outcome {
        case let .success(response) where response.isSuccess:
            guard attempt < maximumAttempts, (response.retryAfter ?? 0) <= maximumDelay, isBusy(response) else {
                return .finish(.success(response))
            }
            return .retry(after: delay(afterAttempt: attempt, retryAfter: response.retryAfter))
        case let .success(response):
            let failure = HTTPError.status(response.status, url: HTTPError.redacted(url))
            guard Self.isTransient(status: response.status),
                attempt < maximumAttempts
            else { return .finish(.failure(failure)) }
            if let retryAfter = response.retryAfter, retryAfter > maximumDelay {
                return .finish(
                    .failure(
                        .retryAfterTooLong(
                            seconds: Int(min(retryAfter, 86_400)),
                            url: HTTPError.redacted(url))))
            }
            return .retry(after: delay(afterAttempt: attempt, retryAfter: response.retryAfter))
        case let .failure(error):
            guard Self.isTransient(error), attempt < maximumAttempts else { return .finish(.failure(error)) }
            return .retry(after: delay(afterAttempt: attempt, retryAfter: nil))
        }
    }
}

/// The end of one try: a final outcome, or another try after a wait.
package enum RetryDecision {
    case finish(Result<HTTPResponse, HTTPError>)
    case retry(after: TimeInterval)
}
