import Foundation
import PhotoMapTestSupport

/// One answer read whole, every header line kept (a sign-in sets two cookies).
struct RawExchange {
    let status: Int
    let headers: [(String, String)]
    let body: Data
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The value a `Set-Cookie` line gives the cookie `name`, if one does.
    func cookie(_ name: String) -> String? {
        headers.lazy.filter { $0.0 == "set-cookie" }.compactMap { line -> String? in
            let pair = line.1.prefix { $0 != ";" }
            guard pair.hasPrefix(name + "=") else { return nil }
            return String(pair.dropFirst(name.count + 1))
        }.first { !$0.isEmpty }
    }
}

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
    func exchange(_ request: String) throws -> RawExchange {
        let descriptor = try RawHTTP.connect(port: serve.port, timeout: 120)
        defer { close(descriptor) }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { break }
            sent += count
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while case let count = recv(descriptor, &buffer, buffer.count, 0), count > 0 {
            received.append(contentsOf: buffer[0..<count])
        }
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else {
            return RawExchange(status: 0, headers: [], body: received)
        }
        let lines = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return RawExchange(status: status, headers: headers, body: received[split.upperBound...])
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
        let visitor = try visitor()
        let form = ["name": name, "password": password, "csrf": visitor.csrf].map { key, value in
            "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        }.joined(separator: "&")
        let answer = try exchange(
            "POST /login HTTP/1.1\r\n\(head(visitor.cookie))Origin: \(origin)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)"
        )
        guard answer.status == 303, let token = answer.cookie("photomap_session") else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "sign-in: \(answer.status)"])
        }
        let cookie = "photomap_session=\(token)"
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
    ) throws -> RawExchange {
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
