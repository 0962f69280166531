// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// Signed-in viewers of a fleet: two `photomap serve` instances on one PostgreSQL database behind nginx
/// running deploy/nginx.conf, serving the audiences matrix (`AudiencesEndToEndTests`). A session made on
/// one opens the other; signing out on one ends it on the other within the 1 s its sessions are kept; and
/// nginx neither keeps a viewer's answer nor hands it to anyone else.
@Suite("A fleet's signed-in viewers: two serve instances, one database, nginx in front")
struct FleetViewersEndToEndTests {
    static let password = "correct horse battery"

    func text(_ answer: RawHTTP.Answer) -> String { String(decoding: answer.body, as: UTF8.self) }

    /// `GET path` through nginx as a browser with `cookie` (none: anyone) sends it.
    func get(_ nginx: NginxProcess, _ path: String, cookie: String?) throws -> RawHTTP.Answer {
        let host = "127.0.0.1:\(nginx.port)"
        return try RawHTTP.send(
            "GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\(cookie.map { "Cookie: \($0)\r\n" } ?? "")Connection: close\r\n\r\n",
            port: nginx.port)
    }

    /// Signs out of `server` as the header's "Sign out" button does: its CSRF token from a page, then the POST.
    func signOut(_ server: ServeProcess, cookie: String) throws -> RawHTTP.Answer {
        let page = text(try server.request("/recent", headers: ["Cookie": cookie]))
        let field = try #require(page.range(of: #"name="csrf" value="[^"]+""#, options: .regularExpression))
        let csrf = String(page[field].dropFirst(#"name="csrf" value=""#.count).dropLast())
        let body = "csrf=\(csrf.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        let host = "127.0.0.1:\(server.port)"
        return try RawHTTP.send(
            "POST /logout HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://\(host)\r\nCookie: \(cookie)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(body)", port: server.port)
    }

    @Test(
        "a session made on one instance opens the other, ends on both at sign-out, and nginx keeps no viewer's answer"
    )
    func sharedSessions() throws {
        let database = try TestDatabase()
        var matrix = try AudiencesEndToEndTests()
        matrix.database = ["--database", database.url]
        let ids = try matrix.importMatrix()
        let familyOnly = try #require(AudiencesEndToEndTests.samples.first { $0.visibility == .family })
        let familyID = try #require(ids[familyOnly.title])
        let publicSample = try #require(AudiencesEndToEndTests.samples.first { $0.visibility == .public })
        let publicID = try #require(ids[publicSample.title])
        let added = try PhotomapBinary.addUser(
            "fiona", role: "family", password: Self.password,
            arguments: ["--cache", matrix.cache.url.path] + matrix.database)
        #expect(added.status == 0, "\(added.stderr)")

        let port = try NginxProcess.freePort()
        let servers = try (0..<2).map { _ in
            try ServeProcess(
                ["--cache", matrix.cache.url.path] + matrix.database + ["--source", "local"],
                serveArguments: ["--public-host", "127.0.0.1:\(port)", "--max-client-connections", "1024"],
                environment: [:])
        }
        defer { for server in servers { server.stop() } }
        let (a, b) = (servers[0], servers[1])
        let nginx = try NginxProcess(upstreams: [a.port, b.port], port: port)

        // Signed in on the first, the same cookie is the same viewer on the second.
        let cookie = try #require(try a.signIn("fiona", password: Self.password), "fiona signs in")
        for server in servers {
            let page = try server.request("/photos/\(familyID)", headers: ["Cookie": cookie])
            #expect(page.status == 200 && text(page).contains(familyOnly.title), "port \(server.port)")
            #expect(text(page).contains("<span class=\"account-name\">fiona</span>"), "port \(server.port)")
            let session = text(try server.request("/api/session", headers: ["Cookie": cookie]))
            #expect(session.contains("\"user\":\"fiona\""), "port \(server.port): \(session)")
        }

        // Through nginx, each path asked by fiona first and then by anyone (fiona's answers must be kept by
        // no one), or by anyone first and then by fiona (anyone's must not be handed to her); anyone's
        // answer after fiona's is what it was before her, with none of what only she may see.
        let fionaFirst = ["/photos/\(familyID)", "/recent", "/images/\(familyID)"]
        let anyoneFirst = ["/", "/places/unlocated", "/squares/\(familyID)"]
        var anyone: [String: Int] = ["/photos/\(familyID)": 404, "/recent": 200, "/images/\(familyID)": 404]
        for path in anyoneFirst { anyone[path] = try get(nginx, path, cookie: nil).status }
        #expect(anyone["/squares/\(familyID)"] == 404)
        for path in fionaFirst + anyoneFirst {
            // Twice each: nginx spreads the requests over both instances.
            for round in 0..<2 {
                let answer = try get(nginx, path, cookie: cookie)
                #expect(answer.status == 200, "fiona \(path) \(round): \(answer.status)")
                #expect(answer.headers["cache-control"] == "private, no-store", "fiona \(path)")
                #expect(answer.headers["x-cache-status"] != "HIT", "fiona \(path) from nginx's cache")
                if path.hasPrefix("/photos/") || path == "/recent" {
                    #expect(text(answer).contains(familyOnly.title), "fiona \(path)")
                }
            }
            for round in 0..<2 {
                let answer = try get(nginx, path, cookie: nil)
                let body = text(answer)
                #expect(!body.contains(familyOnly.title) && !body.contains("fiona"), "anyone \(path) \(round)")
                #expect(answer.status == anyone[path], "anyone \(path) \(round): \(answer.status)")
                #expect(answer.headers["x-cache-status"] != "HIT", "anyone \(path) \(round) from nginx's cache")
            }
        }
        // An imported photo's image, even a public one, is its owner's: the browser's to keep, not nginx's
        // (which keeps only the images of the Flickr source, FleetEndToEndTests).
        for round in 0..<2 {
            let image = try get(nginx, "/images/\(publicID)", cookie: nil)
            #expect(image.status == 200 && image.headers["cache-control"] == "private, max-age=86400")
            #expect(image.headers["x-cache-status"] == "MISS", "round \(round)")
        }

        // Signed out on the second: the first, which read the session just now, lets it go within 1 s.
        #expect(try a.request("/recent", headers: ["Cookie": cookie]).status == 200)
        let out = try signOut(b, cookie: cookie)
        #expect(out.status == 303, "\(text(out))")
        let signedOut = Date()
        var ended: TimeInterval?
        while ended == nil, Date().timeIntervalSince(signedOut) < 3 {
            let page = text(try a.request("/photos/\(familyID)", headers: ["Cookie": cookie]))
            if !page.contains(familyOnly.title) && !page.contains("account-name") {
                ended = Date().timeIntervalSince(signedOut)
            } else {
                usleep(50_000)
            }
        }
        let after = try #require(ended, "the session still opens the first instance 3 s after sign-out")
        #expect(after <= 1.5, "ended on the other instance after \(after) s")
        for server in servers {
            let session = text(try server.request("/api/session", headers: ["Cookie": cookie]))
            #expect(session.contains("\"user\":null"), "port \(server.port): \(session)")
        }
        #expect(!text(try get(nginx, "/recent", cookie: cookie)).contains(familyOnly.title))
    }
}
