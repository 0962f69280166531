// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Signing a user in to a running `serve` as a browser does, and adding one first.
extension ServeProcess {
    /// Signs `name` in with `password` (GET /login for the form's token, POST /login); the session
    /// cookie, as a Cookie field's value; nil when the sign-in is refused.
    public func signIn(_ name: String, password: String) throws -> String? {
        let form = try request("/login")
        let html = String(decoding: form.body, as: UTF8.self)
        guard let visitor = form.setCookies.first(where: { $0.hasPrefix("photomap_presession=") }),
            let field = html.range(of: #"name="csrf" value="[^"]+""#, options: .regularExpression)
        else { return nil }
        let csrf = String(html[field].dropFirst(#"name="csrf" value=""#.count).dropLast())
        let fields = [("name", name), ("password", password), ("csrf", csrf), ("next", "/")]
        let body = fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        let host = "127.0.0.1:\(port)"
        let answer = try RawHTTP.send(
            "POST /login HTTP/1.1\r\nHost: \(host)\r\nOrigin: http://\(host)\r\nCookie: \(visitor.prefix { $0 != ";" })\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(body)", port: port)
        guard answer.status == 303, let session = answer.setCookies.first(where: { $0.hasPrefix("photomap_session=") })
        else { return nil }
        return String(session.prefix { $0 != ";" })
    }
}

extension PhotomapBinary {
    /// `photomap ARGUMENTS users add NAME --role ROLE --password-stdin`, the password on standard input.
    public static func addUser(
        _ name: String, role: String, password: String, arguments: [String]
    ) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments + ["users", "add", name, "--role", role, "--password-stdin"]
        process.environment = environment([:])
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data((password + "\n").utf8))
        try stdin.fileHandleForWriting.close()
        let watchdog = Watchdog(process.processIdentifier, limit: 120, "photomap users add")
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.finish()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}
