// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapTestSupport
import Testing

/// `photomap users` run as a user would, the password on standard input: what is kept, what is refused,
/// and that the password is in no output and no byte of the database.
@Suite("Users end to end")
struct UsersEndToEndTests {
    let cache: TemporaryFolder
    static let password = "correct horse battery staple"

    init() throws {
        cache = try TemporaryFolder()
    }

    /// What one run printed and returned.
    struct Run {
        let status: Int32
        let stdout, stderr: String
    }

    /// Runs `photomap --cache … arguments`, `input` on its standard input (nothing: an empty pipe).
    func photomap(_ arguments: [String], input: String = "") throws -> Run {
        let process = Process()
        process.executableURL = PhotomapBinary.url
        process.arguments = ["--cache", cache.url.path] + arguments
        process.environment = PhotomapBinary.environment([:])
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let watchdog = Watchdog(process.processIdentifier, limit: 120, "photomap \(arguments.joined(separator: " "))")
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.finish()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    @Test("add, list, passwd, remove: the password only as a hash; a new password or removal ends sessions")
    func lifecycle() throws {
        let added = try photomap(
            ["users", "add", "anna", "--role", "friend+family", "--password-stdin"], input: Self.password + "\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr == "photomap: anna added as friend+family\n")
        #expect(try photomap(["users", "add", "zoe", "--password-stdin"], input: "another password\r\n").status == 0)
        let list = try photomap(["users", "list"])
        #expect(
            list.stdout.contains("anna") && list.stdout.contains("friend+family") && list.stdout.hasSuffix("2 users\n"))
        #expect(list.stdout.contains("zoe ") && list.stdout.contains("friend "), "the default role: \(list.stdout)")
        let json = try photomap(["users", "list", "--json"])
        let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: String]]
        #expect(rows?.map { $0["name"] ?? "" } == ["anna", "zoe"] && rows?.first?["role"] == "friend+family")

        let duplicate = try photomap(["users", "add", "anna", "--password-stdin"], input: Self.password)
        #expect(duplicate.status == 1 && duplicate.stderr.contains("a user named 'anna' exists already"))

        let accounts = SQLiteAccounts(cacheDirectory: cache.url)
        let anna = try #require(UserName("anna"))
        let oldHash = try #require(try accounts.user(named: anna)?.passwordHash)
        #expect(PasswordHash.verify(Self.password, against: oldHash))
        try accounts.startSession(digest: "S", for: anna, expires: Date().addingTimeInterval(3600))
        let changed = try photomap(["users", "passwd", "anna", "--password-stdin"], input: "a new password here\n")
        #expect(changed.status == 0 && changed.stderr.contains("sessions are ended"))
        #expect(try accounts.session(digest: "S", now: Date(), renewedUntil: Date()) == nil)
        #expect(
            try PasswordHash.verify("a new password here", against: #require(accounts.user(named: anna)?.passwordHash)))

        for run in [added, list, json, changed] {
            #expect(!run.stdout.contains("horse") && !run.stderr.contains("horse"))
        }
        let bytes =
            try Data(contentsOf: accounts.file)
            + ((try? Data(contentsOf: URL(fileURLWithPath: accounts.file.path + "-wal"))) ?? Data())
        #expect(bytes.range(of: Data("horse".utf8)) == nil && bytes.range(of: Data("new password".utf8)) == nil)

        try accounts.startSession(digest: "T", for: anna, expires: Date().addingTimeInterval(3600))
        #expect(try photomap(["users", "remove", "anna"]).status == 0)
        #expect(try accounts.session(digest: "T", now: Date(), renewedUntil: Date()) == nil)
        let again = try photomap(["users", "remove", "anna"])
        #expect(again.status == 1 && again.stderr.contains("there is no user named 'anna'"))
        #expect(try photomap(["users", "list"]).stdout.hasSuffix("1 user\n"))
    }

    @Test(
        "a name with SQL or HTML, a short password, two options out of place, no terminal: usage errors, nothing kept")
    func refusals() throws {
        for name in ["x'; DROP TABLE users; --", "<script>", "anna smith", ""] {
            let run = try photomap(["users", "add", name, "--password-stdin"], input: Self.password)
            #expect(run.status == 2, "\(name)")
            #expect(run.stderr.contains("a name has 1 to 64 characters, each a letter"), "\(run.stderr)")
        }
        let short = try photomap(["users", "add", "anna", "--password-stdin"], input: "too short\n")
        #expect(short.status == 2 && short.stderr.contains("a password must be 10 to 1024 characters"))
        let long = try photomap(
            ["users", "add", "anna", "--password-stdin"], input: String(repeating: "x", count: 5_000))
        #expect(long.status == 2)
        let noTerminal = try photomap(["users", "add", "anna"])
        #expect(noTerminal.status == 2 && noTerminal.stderr.contains("--password-stdin"))
        #expect(try photomap(["users", "list", "--role", "owner"]).status == 2)
        #expect(
            try photomap(["users", "add", "anna", "--role", "boss", "--password-stdin"], input: Self.password).status
                == 2)
        #expect(try photomap(["users", "list"]).stdout.hasSuffix("0 users\n"))
    }
}
