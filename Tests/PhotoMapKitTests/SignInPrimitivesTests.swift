// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit
@testable import PhotoMapServer

/// The pieces sign-in is made of, each alone: names, tokens, password hashes, the throttle, forms,
/// cookies and the one policy every state-changing request passes.
@Suite("Sign-in primitives")
struct SignInPrimitivesTests {
    @Test("a user name is letters, digits, '.', '_' and '-', 1 to 64 of them; SQL and HTML are not")
    func names() {
        for good in ["anna", "A.b_c-9", String(repeating: "x", count: 64)] { #expect(UserName(good) != nil) }
        for bad in [
            "", String(repeating: "x", count: 65), "anna smith", "x'; DROP TABLE users; --", "<b>anna</b>", "anna\n",
            "änna", "a/b", "a\u{0}",
        ] {
            #expect(UserName(bad) == nil, "\(bad.debugDescription)")
        }
    }

    @Test("tokens: 256 random bits as 43 base64url characters, each different; only that shape is taken")
    func tokens() {
        let tokens = (0..<100).map { _ in SecretToken.random() }
        #expect(Set(tokens.map(\.text)).count == 100)
        #expect(tokens.allSatisfy { SecretToken($0.text) == $0 && $0.digest.count == 64 })
        #expect(SecretToken("short") == nil && SecretToken(String(repeating: "=", count: 43)) == nil)
        let token = tokens[0]
        #expect(token.derived("csrf") != token.text && token.derived("csrf") == token.derived("csrf"))
        #expect(token.derived("csrf") != tokens[1].derived("csrf"))
        #expect(SecretToken.same("abc", "abc") && !SecretToken.same("abc", "abd") && !SecretToken.same("abc", "ab"))
    }

    @Test("a password is kept as an Argon2id hash that holds no part of it, and verifies only itself")
    func passwordHashes() throws {
        let password = "correct horse battery"
        let hash = try PasswordHash.hash(password)
        #expect(hash.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"))
        #expect(!hash.contains(password) && !hash.contains("horse"))
        #expect(PasswordHash.verify(password, against: hash))
        #expect(!PasswordHash.verify("correct horse battery!", against: hash))
        #expect(!PasswordHash.verify(password, against: "not a hash"))
        #expect(!PasswordHash.verify(password, against: PasswordHash.unknownUserHash))
        #expect(throws: AccountError.passwordLength(minimum: 10, maximum: 1_024)) { try PasswordHash.hash("short") }
    }

    @Test("ten failures a minute, then a wait that doubles; per account and per address; success clears")
    func throttle() {
        let now = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let throttle = SignInThrottle(clock: { now.withLock { $0 } })
        func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
        for _ in 0..<9 { throttle.failed(account: "anna", address: "10.0.0.1") }
        #expect(throttle.check(account: "anna", address: "10.0.0.1") == .allowed)
        throttle.failed(account: "anna", address: "10.0.0.1")
        #expect(throttle.check(account: "anna", address: "10.0.0.9") == .wait(seconds: 60), "the account waits")
        #expect(throttle.check(account: "zoe", address: "10.0.0.1") == .wait(seconds: 60), "so does the address")
        #expect(throttle.check(account: "zoe", address: "10.0.0.9") == .allowed)
        advance(61)
        #expect(throttle.check(account: "anna", address: "10.0.0.1") == .allowed)
        for _ in 0..<10 { throttle.failed(account: "anna", address: "10.0.0.2") }
        #expect(throttle.check(account: "anna", address: "10.0.0.3") == .wait(seconds: 120), "doubled")
        throttle.succeeded(account: "anna")
        #expect(throttle.check(account: "anna", address: "10.0.0.9") == .allowed)
        #expect(
            throttle.check(account: "other", address: "10.0.0.2") == .wait(seconds: 60), "the address still waits")
        // Failures spread over more than a minute never add up to a wait.
        for _ in 0..<30 {
            throttle.failed(account: "slow", address: "10.0.0.4")
            advance(7)
        }
        #expect(throttle.check(account: "slow", address: "10.0.0.4") == .allowed)
    }

    @Test("forms: fields decoded; bad escapes, invalid UTF-8, repeated names and floods are not forms")
    func forms() {
        #expect(
            FormBody.parse(Data("name=anna&password=a+b%26c%3D&csrf=".utf8)) == [
                "name": "anna", "password": "a b&c=", "csrf": "",
            ])
        #expect(FormBody.parse(Data()) == [:])
        for bad in ["name=%zz", "name=%4", "name=%C3%28", "a=1&a=2", "=x"] {
            #expect(FormBody.parse(Data(bad.utf8)) == nil, "\(bad)")
        }
        #expect(FormBody.parse(Data((0..<33).map { "f\($0)=1" }.joined(separator: "&").utf8)) == nil)
        #expect(FormBody.isForm("application/x-www-form-urlencoded; charset=UTF-8") && !FormBody.isForm("text/plain"))
    }

    @Test("cookies: parsed by name, the first of a repeated one; set HttpOnly, SameSite=Lax, Path=/, Secure over TLS")
    func cookies() {
        #expect(
            Cookies.parse("a=1; photomap_session=\"x\";b; photomap_session=2") == ["a": "1", "photomap_session": "x"])
        #expect(Cookies.parse(nil).isEmpty && Cookies.parse(";;=;").isEmpty)
        let plain = Cookies.setting("n", "v", maxAge: 60, secure: false)
        #expect(plain == "n=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax")
        #expect(Cookies.setting("n", "v", maxAge: 60, secure: true).hasSuffix("; Secure"))
        let proxied = ServerRequest(method: "GET", path: "/", headers: ["x-forwarded-proto": "https"])
        #expect(Cookies.overTLS(proxied) && !Cookies.overTLS(ServerRequest(method: "GET", path: "/")))
    }

    @Test("the state-change policy: POST, 64 KB, this server's origin, the viewer's token; anything else refused")
    func policy() {
        let policy = StateChangePolicy { $0 == "127.0.0.1:8080" || $0 == "photos.example.org" }
        func post(
            _ headers: [String: String], body: Data = Data(), method: String = "POST", host: String = "127.0.0.1:8080"
        ) -> ServerRequest {
            ServerRequest(
                method: method, path: "/logout", headers: headers.merging(["host": host]) { a, _ in a }, body: body)
        }
        let origin = ["origin": "http://127.0.0.1:8080"]
        let token = "TOKEN"
        #expect(policy.check(post(origin), form: ["csrf": token], expectedToken: token) == .allowed)
        #expect(
            policy.check(post(origin.merging(["x-csrf-token": token]) { a, _ in a }), form: nil, expectedToken: token)
                == .allowed)
        #expect(
            policy.check(
                post(["referer": "http://127.0.0.1:8080/places/1"]), form: ["csrf": token], expectedToken: token)
                == .allowed)
        #expect(
            policy.check(
                post(["origin": "https://photos.example.org"], host: "photos.example.org"), form: ["csrf": token],
                expectedToken: token) == .allowed)
        func status(_ verdict: StateChangePolicy.Verdict) -> Int? {
            if case let .refused(status, _) = verdict { return status }
            return nil
        }
        #expect(status(policy.check(post(origin, method: "GET"), form: ["csrf": token], expectedToken: token)) == 405)
        #expect(
            status(policy.check(post(origin, body: Data(count: 65_537)), form: ["csrf": token], expectedToken: token))
                == 413)
        for headers in [
            [:], ["origin": "null"], ["origin": "http://evil.example"], ["origin": "http://127.0.0.1:8081"],
            ["origin": "https://127.0.0.1:8080.evil.example"],
            ["referer": "http://evil.example/http://127.0.0.1:8080/"],
            ["origin": "http://user@127.0.0.1:8080"], ["origin": "ftp://127.0.0.1:8080"],
        ] {
            #expect(
                status(policy.check(post(headers), form: ["csrf": token], expectedToken: token)) == 403, "\(headers)")
        }
        #expect(
            status(policy.check(post(origin, host: "evil.example"), form: ["csrf": token], expectedToken: token)) == 403
        )
        #expect(status(policy.check(post(origin), form: ["csrf": "TOKEN!"], expectedToken: token)) == 403)
        #expect(status(policy.check(post(origin), form: [:], expectedToken: token)) == 403)
        #expect(status(policy.check(post(origin), form: ["csrf": token], expectedToken: nil)) == 403)
    }
}
