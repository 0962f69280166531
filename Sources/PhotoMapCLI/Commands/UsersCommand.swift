// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `photomap users add|list|remove|passwd`: the people who may sign in to `serve`, each a friend, family,
/// both, or the owner; passwords kept only as Argon2id hashes.
enum UsersCommand {
    static let spec = CommandSpec(
        name: "users",
        summary: "the people who may sign in to serve, and their roles",
        discussion: """
            `users add NAME --role ROLE` adds a person who may sign in to `photomap serve` as a friend, family,
            friend+family or the owner, and asks for their password twice on the terminal, without echo (or
            reads one line from standard input with --password-stdin). A password has 10 to 1,024 characters;
            it is kept only as an Argon2id hash (libsodium) and never printed, logged or sent. A name has
            \(UserName.rule). `users passwd NAME` sets a new password, `users remove NAME` removes the person;
            both end that person's sessions at once. Users and sessions are kept in the cache folder
            (accounts.sqlite), or with --database in PostgreSQL, where every server of a fleet shares them
            (run `photomap db migrate` first).
            """,
        options: [roleOption.spec, passwordStdinFlag.spec, jsonFlag.spec],
        arguments: Action.declared,
        examples: [
            .init("users add anna --role family", "asks for Anna's password twice; she sees what family may"),
            .init("users list", "each person's name and role"),
            .init("users passwd anna", "a new password, asked twice; her sessions end"),
        ])

    /// `--role ROLE`.
    static let roleOption = Option<Role>.choice("role", "what the person is to you (add)", default: .friend)
    static let passwordStdinFlag = Flag(
        "password-stdin", "read the password from standard input (one line) instead of the terminal")
    static let jsonFlag = Flag("json", "print the users as a JSON array (list)")

    /// What `users` does.
    enum Action: String, CommandAction {
        case add, list, remove, passwd

        var summary: String {
            switch self {
            case .add: "add the person NAME with --role ROLE and a password"
            case .list: "the people who may sign in, with their roles"
            case .remove: "remove the person NAME and end their sessions"
            case .passwd: "set NAME's password and end their sessions"
            }
        }

        var argument: String? { self == .list ? nil : "NAME" }
    }

    /// What `users` was asked, decoded once.
    struct Options: CommandOptions {
        var action: Action
        /// The person's name (add, remove, passwd), as given.
        var name: String
        var role: Role
        var passwordFromStandardInput, json: Bool

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            action = try parsed.action(Action.self)
            if action != .add && parsed.has(roleOption) { throw UsageError("--role goes with users add") }
            json = parsed.has(jsonFlag)
            if json && action != .list { throw UsageError("--json goes with users list") }
            passwordFromStandardInput = parsed.has(passwordStdinFlag)
            if passwordFromStandardInput && ![.add, .passwd].contains(action) {
                throw UsageError("--password-stdin goes with users add and users passwd")
            }
            role = try parsed.value(roleOption) ?? .friend
            name = parsed.arguments.dropFirst().first ?? ""
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        let action = options.action
        let accounts = try configuration.state().accounts
        guard action != .list else { return try list(accounts, json: options.json, console: console) }
        let given = options.name
        guard let name = UserName(given) else {
            throw UsageError("'\(given)' is not a user name: a name has \(UserName.rule)")
        }
        switch action {
        case .add:
            let role = options.role
            if try accounts.user(named: name) != nil { throw AccountError.duplicate(name) }
            let hash = try PasswordHash.hash(
                try PasswordInput.read(fromStandardInput: options.passwordFromStandardInput))
            try accounts.add(User(name: name, role: role, created: Date()), passwordHash: hash)
            console.err("photomap: \(name) added as \(role.rawValue)\n")
        case .remove:
            guard try accounts.remove(name) else { throw AccountError.unknownUser(name) }
            console.err("photomap: \(name) removed; their sessions are ended\n")
        case .passwd:
            guard try accounts.user(named: name) != nil else { throw AccountError.unknownUser(name) }
            let hash = try PasswordHash.hash(
                try PasswordInput.read(fromStandardInput: options.passwordFromStandardInput))
            guard try accounts.setPasswordHash(hash, for: name) else { throw AccountError.unknownUser(name) }
            console.err("photomap: \(name)'s password changed; their sessions are ended\n")
        case .list:
            break
        }
    }

    private static func list(_ accounts: any AccountStore, json: Bool, console: Console) throws {
        let users = try accounts.users()
        if json {
            return try console.printJSON(
                users.map { Listed(name: $0.name.text, role: $0.role.rawValue, created: Self.day($0.created)) })
        }
        var table = Table(columns: [
            .init(heading: "NAME", flexible: true), .init(heading: "ROLE"), .init(heading: "ADDED"),
        ])
        table.rows = users.map { [$0.name.text, $0.role.rawValue, Self.day($0.created)] }
        for line in table.render(width: console.width) { console.print(line) }
        console.print(Quantity.groupedWords(users.count, "user", "users"))
    }

    /// A date as its UTC day, 2026-12-06.
    private static func day(_ date: Date) -> String {
        String(ISO8601DateFormatter().string(from: date).prefix(10))
    }

    /// `users list --json`: one user.
    private struct Listed: Encodable {
        let name, role, created: String
    }
}
