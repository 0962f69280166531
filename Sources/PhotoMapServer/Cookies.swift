// SPDX-License-Identifier: Apache-2.0
import PhotoMapKit

/// The cookies `serve` sets and reads: the session (`photomap_session`, a `SecretToken`) and, for a
/// visitor not signed in, the pre-session one (`photomap_presession`) their forms' CSRF token is bound to.
enum Cookies {
    /// The signed-in session's cookie.
    static let session = "photomap_session"
    /// An anonymous visitor's cookie, for the sign-in form's token (double submit).
    static let preSession = "photomap_presession"

    /// The cookies of a `Cookie` field, by name (the first of a repeated name; anything else ignored).
    /// MHD bounds the field's size (the request's header memory).
    static func parse(_ field: String?) -> [String: String] {
        var cookies: [String: String] = [:]
        for pair in (field ?? "").split(separator: ";").prefix(64) {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            var value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            if !name.isEmpty && cookies[name] == nil { cookies[name] = value }
        }
        return cookies
    }

    /// The token a request's cookie `name` holds, when it has a token's shape.
    static func token(_ name: String, in request: ServerRequest) -> SecretToken? {
        parse(request.headers["cookie"])[name].flatMap(SecretToken.init)
    }

    /// A `Set-Cookie` value: readable by no script, sent on this site's own requests and top-level links
    /// to it (`SameSite=Lax`), for every path; `Secure` over TLS. `maxAge` 0 removes the cookie.
    static func setting(_ name: String, _ value: String, maxAge: Int, secure: Bool) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// Whether the request came over TLS, as the proxy says (`X-Forwarded-Proto: https`, which
    /// deploy/nginx.conf sets): cookies then carry `Secure`. A client claiming it directly gains nothing:
    /// its browser then keeps the cookie for https only.
    static func overTLS(_ request: ServerRequest) -> Bool {
        request.headers["x-forwarded-proto"]?.lowercased() == "https"
    }
}
