// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// The one rule every request that changes anything passes before it is handled: a POST, with a body
/// of at most `Upload.limit` bytes, sent by a page of this server (its `Origin`, or without one its
/// `Referer`, names the `Host` the request names, which is one this server answers to), carrying the
/// viewer's CSRF token (a form's `csrf` field, or a script's `X-CSRF-Token`). Anything else is refused,
/// 403 (405, 413), before the route does anything. Pure: tested directly.
struct StateChangePolicy {
    /// The outcome.
    enum Verdict: Equatable {
        case allowed
        case refused(status: Int, reason: String)
    }

    /// Whether a `Host` (lowercased) is one this server answers to.
    let isAllowedHost: (String) -> Bool

    /// Checks `request`, whose form fields (if it is a form) are `form`, against `expectedToken`: the
    /// viewer's CSRF token, nil when the request carries no cookie one could be bound to.
    func check(_ request: ServerRequest, form: [String: String]?, expectedToken: String?) -> Verdict {
        guard request.method == "POST" else {
            return .refused(status: 405, reason: "Changes are made only by POST.")
        }
        guard request.body.count <= Upload.limit else {
            return .refused(status: 413, reason: "A request body may be at most 64 KB.")
        }
        guard let host = request.headers["host"]?.lowercased(), isAllowedHost(host),
            let origin = Self.origin(request), Self.sameSite(origin, host: host)
        else {
            return .refused(status: 403, reason: "Changes are accepted only from this server's own pages.")
        }
        guard let expectedToken, let given = form?["csrf"] ?? request.headers["x-csrf-token"],
            SecretToken.same(given, expectedToken)
        else {
            return .refused(
                status: 403, reason: "The form had expired or was not this server's; load the page again and retry.")
        }
        return .allowed
    }

    /// The scheme and authority the request says it comes from: its `Origin` ("null" is none), else its
    /// `Referer`'s.
    static func origin(_ request: ServerRequest) -> (scheme: String, authority: String)? {
        if let origin = request.headers["origin"], origin != "null" { return split(origin) }
        return request.headers["referer"].flatMap(split)
    }

    /// Whether an origin names `host` (as the request's `Host` field says it: a port only when not the
    /// scheme's default).
    static func sameSite(_ origin: (scheme: String, authority: String), host: String) -> Bool {
        guard origin.scheme == "http" || origin.scheme == "https" else { return false }
        let defaultPort = origin.scheme == "https" ? ":443" : ":80"
        return origin.authority == host || origin.authority + defaultPort == host
            || origin.authority == host + defaultPort
    }

    private static func split(_ url: String) -> (scheme: String, authority: String)? {
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        let rest = url[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        return (scheme, authority)
    }
}
