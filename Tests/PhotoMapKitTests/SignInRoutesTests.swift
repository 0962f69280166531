// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit
@testable import PhotoMapServer

/// `serve`'s sign-in through `ServerRoutes.handle`, request in, answer out, no socket: the form, the
/// session cookie and what refuses it, the throttle on a moved clock, the owner's one-time link.
@Suite("Sign-in routes")
struct SignInRoutesTests {
    let folder: TemporaryFolder
    let now = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    static let host = "127.0.0.1:8080"
    static let password = "correct horse battery"

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Routes over the embedded catalog, with sign-in over `accounts` and this test's clock.
    func routes(_ accounts: any AccountStore) throws -> ServerRoutes {
        let clock = now
        return try embeddedCatalogRoutes(
            in: folder.url,
            adjust: { services in services.signIn = SignIn(accounts: accounts, clock: { clock.withLock { $0 } }) })
    }

    /// The answer, waited for when it comes later.
    func answer(_ routes: ServerRoutes, _ request: ServerRequest) -> ServerResponse {
        routes.answer(request)
    }

    func get(_ path: String, cookie: String? = nil, query: [String: String] = [:]) -> ServerRequest {
        ServerRequest(
            method: "GET", path: path,
            headers: ["host": Self.host].merging(cookie.map { ["cookie": $0] } ?? [:]) { a, _ in a },
            query: query)
    }

    func post(
        _ path: String, _ fields: [String: String], cookie: String?, headers: [String: String] = [:],
        query: [String: String] = [:]
    ) -> ServerRequest {
        let body = fields.map {
            "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        }
        .joined(separator: "&")
        var all = [
            "host": Self.host, "origin": "http://\(Self.host)", "content-type": "application/x-www-form-urlencoded",
        ]
        if let cookie { all["cookie"] = cookie }
        all.merge(headers) { _, new in new }
        return ServerRequest(
            method: "POST", path: path, headers: all, query: query, body: Data(body.utf8), peerAddress: "10.1.2.3")
    }

    /// The cookie `name`'s value a response sets ("" when it removes it), as a Cookie field.
    func cookie(_ response: ServerResponse, _ name: String) -> String? {
        response.headers.filter { $0.name == "Set-Cookie" }.map(\.value).first { $0.hasPrefix(name + "=") }
            .map { String($0.prefix { $0 != ";" }) }
    }

    func body(_ response: ServerResponse) -> String {
        if case let .bytes(data) = response.body { return String(decoding: data, as: UTF8.self) }
        return ""
    }

    /// `/api/session` as a dictionary.
    func session(_ routes: ServerRoutes, cookie: String?) throws -> [String: String] {
        let response = answer(routes, get("/api/session", cookie: cookie))
        let object = try JSONSerialization.jsonObject(with: Data(body(response).utf8)) as? [String: Any]
        return (object ?? [:]).mapValues { $0 as? String ?? "null" }
    }

    /// A visitor's pre-session cookie and the form's token, as the sign-in page gives them.
    func form(_ routes: ServerRoutes, query: [String: String] = [:]) throws -> (cookie: String, csrf: String) {
        let page = answer(routes, get("/login", query: query))
        #expect(page.status == 200 && page.header("Cache-Control") == "private, no-store")
        let cookie = try #require(self.cookie(page, Cookies.preSession))
        let html = body(page)
        let start = try #require(html.range(of: "name=\"csrf\" value=\""))
        return (cookie, String(html[start.upperBound...].prefix { $0 != "\"" }))
    }

    func addAnna(_ accounts: any AccountStore, role: Role = .family) throws {
        try accounts.add(
            User(name: try #require(UserName("anna")), role: role, created: Date()),
            passwordHash: try PasswordHash.hash(Self.password))
    }

    @Test("sign in: 303 to the page come from, a session cookie with its flags; wrong password and unknown name alike")
    func signIn() throws {
        let accounts = SQLiteAccounts(cacheDirectory: folder.url)
        try addAnna(accounts)
        let routes = try routes(accounts)
        let (visitor, csrf) = try form(routes)
        let wrong = answer(
            routes, post("/login", ["name": "anna", "password": "not the password", "csrf": csrf], cookie: visitor))
        let unknown = answer(
            routes, post("/login", ["name": "nobody", "password": "not the password", "csrf": csrf], cookie: visitor))
        #expect(wrong.status == 401 && unknown.status == 401 && body(wrong) == body(unknown))
        #expect(cookie(wrong, Cookies.session) == nil)
        let fields = ["name": "anna", "password": Self.password, "csrf": csrf, "next": "/places/123?limit=5"]
        let signedIn = answer(routes, post("/login", fields, cookie: visitor))
        #expect(signedIn.status == 303 && signedIn.header("Location") == "/places/123?limit=5")
        let setting = try #require(signedIn.headers.first { $0.value.hasPrefix(Cookies.session + "=") }?.value)
        #expect(setting.hasSuffix("; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax"))
        let session = try #require(cookie(signedIn, Cookies.session))
        #expect(try self.session(routes, cookie: session)["user"] == "anna")
        #expect(try self.session(routes, cookie: session)["role"] == "family")
        // Over TLS (the proxy says so) the cookie is Secure.
        let (visitor2, csrf2) = try form(routes)
        let secure = answer(
            routes,
            post(
                "/login", ["name": "anna", "password": Self.password, "csrf": csrf2], cookie: visitor2,
                headers: ["x-forwarded-proto": "https"]))
        #expect(secure.headers.contains { $0.value.hasPrefix(Cookies.session + "=") && $0.value.hasSuffix("; Secure") })
    }

    @Test("the page to go back to is a local path only: never another site")
    func openRedirect() throws {
        let accounts = SQLiteAccounts(cacheDirectory: folder.url)
        try addAnna(accounts)
        let routes = try routes(accounts)
        for next in ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/a\nb"] {
            let (visitor, csrf) = try form(routes)
            let response = answer(
                routes,
                post(
                    "/login", ["name": "anna", "password": Self.password, "csrf": csrf, "next": next], cookie: visitor))
            #expect(response.status == 303 && response.header("Location") == "/", "\(next.debugDescription)")
        }
        let page = answer(routes, get("/login", query: ["next": "//evil.example"]))
        #expect(body(page).contains("name=\"next\" value=\"/\""))
    }

    @Test("failed sign-ins: the 11th within a minute is 429 with Retry-After; a minute later they are tried again")
    func throttled() throws {
        let accounts = SQLiteAccounts(cacheDirectory: folder.url)
        try addAnna(accounts)
        let routes = try routes(accounts)
        let (visitor, csrf) = try form(routes)
        for _ in 0..<SignInThrottle.allowed {
            let refused = answer(
                routes,
                post("/login", ["name": "anna", "password": "guess guess guess", "csrf": csrf], cookie: visitor))
            #expect(refused.status == 401)
        }
        let good = ["name": "anna", "password": Self.password, "csrf": csrf]
        let waiting = answer(routes, post("/login", good, cookie: visitor))
        #expect(waiting.status == 429 && waiting.header("Retry-After") == "60")
        now.withLock { $0 = $0.addingTimeInterval(61) }
        #expect(answer(routes, post("/login", good, cookie: visitor)).status == 303)
    }

    @Test("a POST from another origin, without the token or with another's, changes nothing (403)")
    func forgedRequests() throws {
        let accounts = SQLiteAccounts(cacheDirectory: folder.url)
        try addAnna(accounts)
        let routes = try routes(accounts)
        let (visitor, csrf) = try form(routes)
        let session = try #require(
            cookie(
                answer(
                    routes, post("/login", ["name": "anna", "password": Self.password, "csrf": csrf], cookie: visitor)),
                Cookies.session))
        let token = try #require(try self.session(routes, cookie: session)["csrf"])
        for (fields, headers) in [
            ([:], [:]), (["csrf": csrf], [:]), (["csrf": token], ["origin": "http://evil.example"]),
            (["csrf": token], ["origin": "null"]),
        ] as [([String: String], [String: String])] {
            let refused = answer(routes, post("/logout", fields, cookie: session, headers: headers))
            #expect(refused.status == 403)
            #expect(try self.session(routes, cookie: session)["user"] == "anna", "still signed in")
        }
        // A sign-in without the visitor's token changes nothing either.
        let forged = answer(routes, post("/login", ["name": "anna", "password": Self.password], cookie: visitor))
        #expect(forged.status == 403 && cookie(forged, Cookies.session) == nil)
        // Malformed or oversized: refused before anything is looked at.
        let malformed = ServerRequest(
            method: "POST", path: "/login",
            headers: [
                "host": Self.host, "origin": "http://\(Self.host)", "content-type": "application/x-www-form-urlencoded",
            ],
            body: Data("name=%zz".utf8))
        #expect(answer(routes, malformed).status == 400)
        let oversized = ServerRequest(
            method: "POST", path: "/logout",
            headers: ["host": Self.host, "origin": "http://\(Self.host)", "cookie": session, "x-csrf-token": token],
            body: Data(count: Upload.limit + 1))
        #expect(answer(routes, oversized).status == 413)
        #expect(
            answer(routes, ServerRequest(method: "PUT", path: "/logout", headers: ["host": Self.host])).status == 405)
        // The script's way: the token in X-CSRF-Token signs out.
        let out = answer(
            routes,
            ServerRequest(
                method: "POST", path: "/logout",
                headers: ["host": Self.host, "origin": "http://\(Self.host)", "cookie": session, "x-csrf-token": token])
        )
        #expect(out.status == 303 && cookie(out, Cookies.session) == "\(Cookies.session)=")
        #expect(try self.session(routes, cookie: session)["user"] == "null", "replayed after sign-out: anonymous")
    }

    @Test("a forged, expired or removed user's cookie is anonymous, and a page tells the browser to drop it")
    func deadCookies() throws {
        let accounts = SQLiteAccounts(cacheDirectory: folder.url)
        try addAnna(accounts)
        let routes = try routes(accounts)
        let forged = "\(Cookies.session)=\(SecretToken.random().text)"
        #expect(try session(routes, cookie: forged)["user"] == "null")
        #expect(try session(routes, cookie: "\(Cookies.session)=not-a-token")["user"] == "null")
        let page = answer(routes, get("/recent", cookie: forged))
        #expect(page.status == 200 && page.header("Cache-Control") == "private, no-store")
        #expect(cookie(page, Cookies.session) == "\(Cookies.session)=" && body(page).contains(PageRenderer.signInLink))

        let (visitor, csrf) = try form(routes)
        let session = try #require(
            cookie(
                answer(
                    routes, post("/login", ["name": "anna", "password": Self.password, "csrf": csrf], cookie: visitor)),
                Cookies.session))
        let signedIn = answer(routes, get("/recent", cookie: session))
        #expect(
            body(signedIn).contains("<span class=\"account-name\">anna</span>") && body(signedIn).contains("Sign out"))
        #expect(!body(signedIn).contains(PageRenderer.signInLink))
        now.withLock { $0 = $0.addingTimeInterval(31 * 24 * 3600) }
        #expect(try self.session(routes, cookie: session)["user"] == "null", "expired")
        now.withLock { $0 = $0.addingTimeInterval(-31 * 24 * 3600) }
        #expect(try self.session(routes, cookie: session)["user"] == "null", "an expired session is gone for good")

        let (visitor2, csrf2) = try form(routes)
        let second = try #require(
            cookie(
                answer(
                    routes,
                    post("/login", ["name": "anna", "password": Self.password, "csrf": csrf2], cookie: visitor2)),
                Cookies.session))
        #expect(try accounts.remove(#require(UserName("anna"))))
        #expect(try self.session(routes, cookie: second)["user"] == "null", "removed user")
    }

    @Test("the owner's link: opening it changes nothing; its POST signs in once, within ten minutes")
    func ownerLink() throws {
        let accounts = SQLiteAccounts(cacheDirectory: folder.url)
        let routes = try routes(accounts)
        let signIn = try #require(routes.services.signIn)
        let (token, made) = try signIn.ownerLink()
        #expect(made?.text == "owner")
        let query = ["token": token.text]
        let (visitor, csrf) = try form(routes, query: query)
        let page = body(answer(routes, get("/login", query: query)))
        #expect(
            page.contains("Sign in as the owner") && !page.contains(token.text), "the token is never written in a page")
        let signedIn = answer(routes, post("/login", ["csrf": csrf], cookie: visitor, query: query))
        #expect(signedIn.status == 303)
        let session = try #require(cookie(signedIn, Cookies.session))
        #expect(try self.session(routes, cookie: session)["role"] == "owner")
        let (again, csrf2) = try form(routes, query: query)
        #expect(answer(routes, post("/login", ["csrf": csrf2], cookie: again, query: query)).status == 401, "used once")

        let (late, _) = try signIn.ownerLink()
        now.withLock { $0 = $0.addingTimeInterval(601) }
        let (visitor3, csrf3) = try form(routes, query: ["token": late.text])
        #expect(
            answer(routes, post("/login", ["csrf": csrf3], cookie: visitor3, query: ["token": late.text])).status == 401
        )
    }

    @Test(
        "a session outlives its server and is shared by another; sign-out on one ends it on both",
        arguments: StateEngine.allCases)
    func sharedSessions(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        try addAnna(try place.stores().accounts)
        let first = try routes(try place.stores().accounts)
        let (visitor, csrf) = try form(first)
        let session = try #require(
            cookie(
                answer(
                    first, post("/login", ["name": "anna", "password": Self.password, "csrf": csrf], cookie: visitor)),
                Cookies.session))
        let second = try routes(try place.stores().accounts)
        let shared = try self.session(second, cookie: session)
        #expect(shared["user"] == "anna")
        let out = answer(second, post("/logout", ["csrf": shared["csrf"] ?? ""], cookie: session))
        #expect(out.status == 303)
        #expect(try self.session(first, cookie: session)["user"] == "null")
    }
}
