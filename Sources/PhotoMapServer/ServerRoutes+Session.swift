// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// Sign-in in `photomap serve`: `GET /login` (the form; with `?token=` the owner's one-time link's
/// button), `POST /login`, `POST /logout`, `GET /api/session` for scripts; every POST passes
/// `StateChangePolicy` first. Answers to a request carrying a session cookie are `private, no-store`,
/// and its pages name the viewer with a "Sign out" button.
extension ServerRoutes {
    /// The answer to `request`, from its viewer's view: the public one for anyone not signed in; for a
    /// session cookie, the session is read first (the database: off MHD's thread) and its role's view
    /// answers, dressed for that viewer.
    public func handle(_ request: ServerRequest) -> HTTPServer.Reply {
        guard let token = Cookies.token(Cookies.session, in: request), let signIn = services.signIn else {
            return answer(request)
        }
        return .later { [self] reply in
            let accepted = slowWork.submit(
                {
                    let session: Session?, known: Bool
                    do {
                        (session, known) = (try self.session(token, signIn: signIn), true)
                    } catch {
                        // Answered as anyone not signed in; the database's trouble is the log's.
                        self.services.log("the session could not be read: \(error)")
                        (session, known) = (nil, false)
                    }
                    let routes: ServerRoutes
                    do {
                        routes = try self.routes(for: session?.user.role)
                    } catch {
                        self.services.log(
                            "the view of a \(session?.user.role.rawValue ?? "") could not be made: \(error)")
                        return reply(self.errorPage(503, "The server could not answer; try again shortly."))
                    }
                    let dress: @Sendable (ServerResponse) -> ServerResponse = { response in
                        self.personal(response, token: token, session: session, known: known, request: request)
                    }
                    switch routes.answer(request) {
                    case let .now(response): reply(dress(response))
                    case let .later(work): work { reply(dress($0)) }
                    }
                }, maximumWaiting: Self.maximumWaiting)
            if !accepted { reply(errorPage(503, "The server is busy; try again shortly.")) }
        }
    }

    /// Most sessions kept as read, and for how long: a session ended elsewhere (another server of the
    /// fleet, `users remove`) opens nothing here after at most that long; one ended here, at once.
    static let sessionsKept = 4_096
    static let sessionReadAgain: TimeInterval = 1

    /// The session `token` opens, as read at most `sessionReadAgain` seconds ago.
    func session(_ token: SecretToken, signIn: SignIn) throws -> Session? {
        let now = signIn.clock()
        if let kept = sessionsRead.withLock({ $0[token.digest] }),
            now.timeIntervalSince(kept.read) < Self.sessionReadAgain,
            now >= kept.read
        {
            return kept.session
        }
        let session = try signIn.session(token)
        sessionsRead.withLock { kept in
            if kept.count >= Self.sessionsKept { kept.removeAll() }
            kept[token.digest] = (session, now)
        }
        return session
    }

    /// A state-changing request: checked by `StateChangePolicy`, then handled (a sign-in's password check
    /// and the database on the slow-work threads).
    func changeState(_ request: ServerRequest) -> HTTPServer.Reply {
        guard let signIn = services.signIn, ["/login", "/logout"].contains(request.path) else {
            return .now(errorPage(405, "Only GET and HEAD are answered here.", headers: [("Allow", "GET, HEAD")]))
        }
        let isForm = FormBody.isForm(request.headers["content-type"])
        let form = isForm ? FormBody.parse(request.body) : nil
        if isForm && form == nil { return .now(errorPage(400, "The form could not be read.")) }
        let policy = StateChangePolicy { [hosts] in hosts.contains($0) }
        if case let .refused(status, reason) = policy.check(request, form: form, expectedToken: csrfToken(request)) {
            services.log("refused a \(request.path) request from \(clientAddress(request)): \(reason)")
            return .now(errorPage(status, reason))
        }
        let address = clientAddress(request)
        let secure = Cookies.overTLS(request)
        if request.path == "/logout" {
            return later(failing: "Could not sign out") {
                if let token = Cookies.token(Cookies.session, in: request) {
                    try signIn.signOut(token)
                    self.sessionsRead.withLock { $0[token.digest] = nil }
                }
                return Self.redirect(
                    to: Self.localPath(form?["next"]) ?? "/",
                    cookies: [Cookies.setting(Cookies.session, "", maxAge: 0, secure: secure)])
            }
        }
        guard let form else { return .now(errorPage(400, "Sign in with the form at /login.")) }
        return later(failing: "Could not sign in") { [self] in
            let outcome =
                try request.query["token"].map { try signIn.signIn(link: $0, from: address) }
                ?? signIn.signIn(name: form["name"] ?? "", password: form["password"] ?? "", from: address)
            switch outcome {
            case let .signedIn(token, user):
                services.log("signed in: \(user.name) (\(user.role.rawValue)) from \(address)")
                return Self.redirect(
                    to: request.query["token"] == nil ? Self.localPath(form["next"]) ?? "/" : "/",
                    cookies: [
                        Cookies.setting(
                            Cookies.session, token.text, maxAge: Int(SQLiteAccounts.sessionLifetime), secure: secure),
                        Cookies.setting(Cookies.preSession, "", maxAge: 0, secure: secure),
                    ])
            case .refused:
                services.log("sign-in refused from \(address)")
                return signInPage(request, status: 401, message: "That name and password do not match.")
            case let .wait(seconds):
                services.log("sign-in throttled from \(address): \(seconds) s")
                var page = signInPage(
                    request, status: 429, message: "Too many failed sign-ins; try again in \(seconds) seconds.")
                page.headers.append(("Retry-After", String(seconds)))
                return page
            }
        }
    }

    /// `GET /api/session`: `{"user": NAME|null, "role": ROLE|null, "csrf": TOKEN}`.
    func sessionAnswer(_ request: ServerRequest) -> HTTPServer.Reply {
        guard let signIn = services.signIn else { return .now(apiError(404, "sign-in is not set up")) }
        return later(failing: "The session could not be read", asJSON: true) { [self] in
            let session = try Cookies.token(Cookies.session, in: request).flatMap { try signIn.session($0) }
            if session?.user.role == .owner { services.locationEditing?.prepare() }
            var cookies: [String] = []
            let csrf = csrfToken(request) ?? newPreSession(request, into: &cookies)
            let body = try JSONOutput.data(SessionJSON(session: session, csrf: csrf))
            return ServerResponse(
                status: 200,
                headers: Self.commonHeaders + [
                    ("Content-Type", "application/json"), ("Cache-Control", "private, no-store"),
                ]
                    + cookies.map { ("Set-Cookie", $0) },
                body: .bytes(body))
        }
    }

    /// The viewer's CSRF token: made from their session's cookie, or a visitor's pre-session one; nil
    /// without either (a form then gets a pre-session cookie first).
    func csrfToken(_ request: ServerRequest) -> String? {
        (Cookies.token(Cookies.session, in: request) ?? Cookies.token(Cookies.preSession, in: request))?
            .derived("csrf")
    }

    /// A new pre-session cookie for `request`'s visitor, added to `cookies`; its CSRF token.
    func newPreSession(_ request: ServerRequest, into cookies: inout [String]) -> String {
        let token = SecretToken.random()
        cookies.append(Cookies.setting(Cookies.preSession, token.text, maxAge: 3600, secure: Cookies.overTLS(request)))
        return token.derived("csrf")
    }

    /// Who sent the request, for the throttle and the log: the connection's address, or behind a proxy on
    /// this machine the address it says (`X-Real-IP`, which deploy/nginx.conf sets).
    func clientAddress(_ request: ServerRequest) -> String {
        let loopback = request.peerAddress == "127.0.0.1" || request.peerAddress == "::1"
        if loopback, let forwarded = request.headers["x-real-ip"], (1...45).contains(forwarded.count),
            forwarded.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" })
        {
            return forwarded
        }
        return request.peerAddress.isEmpty ? "unknown" : request.peerAddress
    }

    /// `path` when it is a path on this server ("/places/123?limit=50"), never another site
    /// ("//evil.example", "https://…", "/\\evil"): where a sign-in may send the browser back to.
    static func localPath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), path.count <= 2_048,
            !path.contains("\\"), path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else { return nil }
        return path
    }

    /// A 303 to `path` (local), setting `cookies`.
    static func redirect(to path: String, cookies: [String]) -> ServerResponse {
        ServerResponse(
            status: 303,
            headers: commonHeaders + [("Location", path), ("Cache-Control", "private, no-store")]
                + cookies.map { ("Set-Cookie", $0) })
    }

    /// Whether an answer is one of the pages (HTML).
    static func isPage(_ response: ServerResponse) -> Bool {
        response.header("Content-Type")?.hasPrefix("text/html") == true
    }

    /// `response` for a viewer with a session cookie: never kept by a shared cache, and on a page, the
    /// header's "Sign in" link replaced by their name and a "Sign out" button (or, for a cookie that
    /// opens no session — forged, ended, expired — the cookie removed and the page left anonymous).
    /// `known`: whether the session could be read (when not, the cookie stays).
    private func personal(
        _ response: ServerResponse, token: SecretToken, session: Session?, known: Bool, request: ServerRequest
    ) -> ServerResponse {
        var response = response
        response.headers.removeAll { $0.name.lowercased() == "cache-control" }
        response.headers.append(("Cache-Control", "private, no-store"))
        guard let signIn = services.signIn, response.status == 200, Self.isPage(response),
            case let .bytes(data) = response.body, known
        else {
            return response
        }
        let secure = Cookies.overTLS(request)
        guard let session else {
            response.headers.append(("Set-Cookie", Cookies.setting(Cookies.session, "", maxAge: 0, secure: secure)))
            return response
        }
        let html = String(decoding: data, as: UTF8.self)
        let signedIn = PageRenderer.signedIn(name: session.user.name.text, csrf: token.derived("csrf"))
        if let marker = html.range(of: PageRenderer.signInLink) {
            response.body = .bytes(Data(html.replacingCharacters(in: marker, with: signedIn).utf8))
        }
        let lifetime = Int(session.expires.timeIntervalSince(signIn.clock()))
        response.headers.append(
            ("Set-Cookie", Cookies.setting(Cookies.session, token.text, maxAge: lifetime, secure: secure)))
        return response
    }
}

/// `/api/session`'s answer: null where nobody is signed in.
private struct SessionJSON: Encodable {
    let session: Session?
    let csrf: String

    enum CodingKeys: String, CodingKey { case user, role, csrf }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session?.user.name.text, forKey: .user)
        try container.encode(session?.user.role.rawValue, forKey: .role)
        try container.encode(csrf, forKey: .csrf)
    }
}
