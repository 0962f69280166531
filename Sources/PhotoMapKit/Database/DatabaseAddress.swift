// SPDX-License-Identifier: Apache-2.0
import CPQ
import Foundation

/// A PostgreSQL connection string (`postgresql://user:secret@host:5432/photomap`, or libpq's
/// `key=value` form), checked by libpq's own parser. Its description names the server, never the
/// password, so errors, logs and `db status` can show it.
public struct DatabaseAddress: Sendable, CustomStringConvertible {
    /// The string as given, password included: only for libpq.
    let connectionString: String
    /// The password, if the string holds one: removed from any message libpq writes.
    private let password: String?
    /// user@host:port/database, with libpq's defaults for what is not given.
    public let description: String

    /// Parses `text`; throws `invalidAddress` with libpq's reason (which never quotes a password).
    public init(_ text: String) throws(DatabaseError) {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &message) else {
            let reason = message.map { String(cString: $0) } ?? "not a connection string"
            PQfreemem(message)
            // libpq quotes the string it could not parse, password and all.
            throw .invalidAddress(
                reason: reason.trimmingCharacters(in: .whitespacesAndNewlines)
                    .replacingOccurrences(of: text, with: Self.masked(text)))
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        connectionString = text
        password = values["password"].flatMap { $0.isEmpty ? nil : $0 }
        let host = values["host"] ?? values["hostaddr"] ?? "the local socket"
        let port = values["port"].map { ":" + $0 } ?? ""
        let user = values["user"].map { $0 + "@" } ?? ""
        description = "\(user)\(host)\(port)/\(values["dbname"] ?? "(default database)")"
    }

    /// `text` with anything that may be a password masked: a URL's `user:secret@`, a `password=` keyword.
    static func masked(_ text: String) -> String {
        text.replacingOccurrences(of: #"(://[^/@:]*:)[^@]*@"#, with: "$1***@", options: .regularExpression)
            .replacingOccurrences(
                of: #"(password\s*=\s*)('[^']*'|\S+)"#, with: "$1***",
                options: [.regularExpression, .caseInsensitive])
    }

    /// `message` without the password, should a server or library ever echo it.
    func redacted(_ message: String) -> String {
        guard let password else { return message }
        return message.replacingOccurrences(of: password, with: "***")
    }
}
