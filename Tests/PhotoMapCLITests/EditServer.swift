// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport

/// A viewer of the server: their cookie (`name=value`) and the CSRF token their pages carry.
struct Viewer {
    let cookie: String
    let csrf: String
}

/// A running `serve` the edit tests sign in to, and post edits to, as a browser would.
struct EditServer {
    let serve: ServeProcess
    let password: String

    var origin: String { "http://127.0.0.1:\(serve.port)" }

    /// The request's fixed header lines: Host, Connection: close, and the cookie.
    func head(_ cookie: String) -> String {
        "Host: 127.0.0.1:\(serve.port)\r\nConnection: close\r\nCookie: \(cookie)\r\n"
    }

    /// Sends `request` and reads its answer whole. The first edit reads the gazetteer: seconds on a busy
    /// machine.
    func exchange(_ request: String) throws -> RawHTTP.Answer {
        try RawHTTP.send(request, port: serve.port, timeout: 120)
    }

    /// A visitor who opened /login: their pre-session cookie and its token.
    func visitor() throws -> Viewer {
        let form = try exchange("GET /login HTTP/1.1\r\nHost: 127.0.0.1:\(serve.port)\r\nConnection: close\r\n\r\n")
        guard let cookie = form.cookie("photomap_presession"),
            let field = form.text.range(of: #"name="csrf" value="[^"]+""#, options: .regularExpression)
        else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: form.text]) }
        let csrf = form.text[field].dropLast().split(separator: "\"").last.map(String.init) ?? ""
        return Viewer(cookie: "photomap_presession=\(cookie)", csrf: csrf)
    }

    /// Signs `name` in through the form, as a browser does; their session cookie and its token.
    func signIn(_ name: String) throws -> Viewer {
        guard let cookie = try serve.signIn(name, password: password) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "sign-in refused: \(name)"])
        }
        let session = try exchange("GET /api/session HTTP/1.1\r\n\(head(cookie))\r\n")
        let json = try JSONSerialization.jsonObject(with: session.body) as? [String: Any]
        guard json?["user"] as? String == name, let csrf = json?["csrf"] as? String else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: session.text])
        }
        return Viewer(cookie: cookie, csrf: csrf)
    }

    /// Where a request says it comes from.
    enum From {
        /// This server's own pages.
        case here
        /// Nowhere: no Origin, no Referer.
        case nowhere
        /// Another site.
        case site(String)
    }

    /// `POST /api/photos/locations` with `body` from `viewer`, with their token unless `token` says
    /// otherwise ("" for none).
    func post(
        _ body: String, as viewer: Viewer, token: String? = nil, from: From = .here,
        contentType: String = "application/json"
    ) throws -> RawHTTP.Answer {
        let origin: String? =
            switch from {
            case .here: self.origin
            case .nowhere: nil
            case let .site(site): site
            }
        let token = token ?? viewer.csrf
        return try exchange(
            "POST /api/photos/locations HTTP/1.1\r\n\(head(viewer.cookie))"
                + (origin.map { "Origin: \($0)\r\n" } ?? "") + (token.isEmpty ? "" : "X-CSRF-Token: \(token)\r\n")
                + "Content-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    }
}
