// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// The users, sessions and one-time links behave the same on both engines: the cache folder's
/// accounts.sqlite and PostgreSQL. "Another process" is another store on the same folder or database.
@Suite("Accounts, on either engine")
struct AccountStoreTests {
    let folder: TemporaryFolder
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        folder = try TemporaryFolder()
    }

    func name(_ text: String) throws -> UserName { try #require(UserName(text)) }

    @Test(
        "users are added once, listed by name, removed; a removed user's sessions end", arguments: StateEngine.allCases)
    func users(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        let accounts = try place.stores().accounts
        try accounts.add(User(name: name("zoe"), role: .family, created: start), passwordHash: "HASH-Z")
        try accounts.add(User(name: name("anna"), role: .friendAndFamily, created: start), passwordHash: "HASH-A")
        #expect(throws: AccountError.duplicate(try name("anna"))) {
            try accounts.add(User(name: name("anna"), role: .owner, created: start), passwordHash: "other")
        }
        let other = try place.stores().accounts
        #expect(try other.users().map(\.name.text) == ["anna", "zoe"])
        #expect(try other.users().map(\.role) == [.friendAndFamily, .family])
        #expect(try other.user(named: name("anna"))?.passwordHash == "HASH-A")
        #expect(try other.user(named: name("nobody")) == nil)

        try accounts.startSession(digest: "S1", for: name("anna"), expires: start.addingTimeInterval(100))
        #expect(try other.session(digest: "S1", now: start, renewedUntil: start)?.user.name.text == "anna")
        #expect(try other.remove(name("anna")))
        #expect(try !other.remove(name("anna")))
        #expect(try accounts.session(digest: "S1", now: start, renewedUntil: start) == nil)
        #expect(try accounts.users().map(\.name.text) == ["zoe"])
    }

    @Test("a new password ends the user's sessions, not others'", arguments: StateEngine.allCases)
    func passwordChange(engine: StateEngine) throws {
        let accounts = try engine.place(in: folder.url).stores().accounts
        for user in ["anna", "zoe"] {
            try accounts.add(User(name: name(user), role: .friend, created: start), passwordHash: "OLD")
            try accounts.startSession(digest: "S-\(user)", for: name(user), expires: start.addingTimeInterval(100))
        }
        #expect(try accounts.setPasswordHash("NEW", for: name("anna")))
        #expect(try !accounts.setPasswordHash("NEW", for: name("nobody")))
        #expect(try accounts.user(named: name("anna"))?.passwordHash == "NEW")
        #expect(try accounts.session(digest: "S-anna", now: start, renewedUntil: start) == nil)
        #expect(try accounts.session(digest: "S-zoe", now: start, renewedUntil: start) != nil)
    }

    @Test("a session ends at its time, is renewed when used, ends when signed out", arguments: StateEngine.allCases)
    func sessionLife(engine: StateEngine) throws {
        let accounts = try engine.place(in: folder.url).stores().accounts
        try accounts.add(User(name: name("anna"), role: .friend, created: start), passwordHash: "H")
        let day: TimeInterval = 24 * 3600
        try accounts.startSession(digest: "S", for: name("anna"), expires: start.addingTimeInterval(30 * day))
        // Used on day 10: renewed to 30 days from then.
        let used = start.addingTimeInterval(10 * day)
        let renewed = try accounts.session(digest: "S", now: used, renewedUntil: used.addingTimeInterval(30 * day))
        #expect(renewed?.expires == used.addingTimeInterval(30 * day))
        // Not used again: gone after day 40, and deleted.
        let late = used.addingTimeInterval(31 * day)
        #expect(try accounts.session(digest: "S", now: late, renewedUntil: late.addingTimeInterval(30 * day)) == nil)
        #expect(try accounts.session(digest: "S", now: used, renewedUntil: used) == nil)

        try accounts.startSession(digest: "T", for: name("anna"), expires: start.addingTimeInterval(day))
        try accounts.endSession(digest: "T")
        #expect(try accounts.session(digest: "T", now: start, renewedUntil: start) == nil)
    }

    @Test("a one-time link signs in once, within its time", arguments: StateEngine.allCases)
    func links(engine: StateEngine) throws {
        let place = try engine.place(in: folder.url)
        let accounts = try place.stores().accounts
        try accounts.addSignInLink(digest: "L", expires: start.addingTimeInterval(600))
        try accounts.addSignInLink(digest: "OLD", expires: start.addingTimeInterval(600))
        #expect(try place.stores().accounts.takeSignInLink(digest: "L", now: start.addingTimeInterval(599)))
        #expect(try !accounts.takeSignInLink(digest: "L", now: start), "used once already")
        #expect(try !accounts.takeSignInLink(digest: "OLD", now: start.addingTimeInterval(601)), "too old")
        #expect(try !accounts.takeSignInLink(digest: "OLD", now: start), "a too-old link is gone, not kept")
        #expect(try !accounts.takeSignInLink(digest: "NEVER", now: start))
    }

    @Test("the accounts' file is readable by its owner only")
    func filePermissions() throws {
        let accounts = SQLiteAccounts(cacheDirectory: folder.url)
        _ = try accounts.users()
        let mode = try FileManager.default.attributesOfItem(atPath: accounts.file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
