// SPDX-License-Identifier: Apache-2.0
/// What can go wrong fetching a URL.
public enum HTTPError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Only http and https are ever fetched or followed.
    case unsupportedURL(String)
    /// libcurl failed (connection refused, timeout, reset, …): its code and message.
    case transport(code: Int, message: String, url: String)
    /// The server answered with a status that is not 2xx.
    case status(Int, url: String)
    /// The server asked to wait longer than photomap is willing to.
    case retryAfterTooLong(seconds: Int, url: String)
    /// libcurl refused one of the options every request carries (a guard such as the http/https-only
    /// rule, a timeout, the CA file): the request was not sent.
    case optionRefused(option: Int, message: String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case let .unsupportedURL(url):
            return "refusing \(url): only http and https URLs are fetched"
        case let .transport(code, message, url):
            return "cannot fetch \(url): \(message) (curl error \(code))"
        case let .status(status, url):
            return "\(url) answered HTTP \(status)"
        case let .retryAfterTooLong(seconds, url):
            return "\(url) asked to retry after \(seconds) s; giving up"
        case let .optionRefused(option, message):
            return "libcurl refused option \(option) (\(message)); no request was sent"
        }
    }

    /// Whether the server took too long (curl's CURLE_OPERATION_TIMEDOUT, 28): a gateway answers 504.
    public var isTimeout: Bool {
        if case .transport(code: 28, _, _) = self { return true }
        return false
    }

    /// Whether the network was out of reach: a name that did not resolve (curl 5, 6), no connection (7),
    /// or no answer in time (28). Kept answers of any age may then stand in.
    public var isNoNetwork: Bool {
        if case let .transport(code, _, _) = self { return [5, 6, 7, 28].contains(code) }
        return false
    }

    /// `url` without its query and fragment, so an API key in the query never reaches a message or log.
    public static func redacted(_ url: String) -> String {
        String(url.prefix(while: { $0 != "?" && $0 != "#" }))
    }
}
