// SPDX-License-Identifier: Apache-2.0
/// A command, declared once: its name, description, options and arguments. The parser, `--help`,
/// the shell completions and the man page all read this declaration.
struct CommandSpec: Sendable {
    /// What follows the command's name besides options.
    enum Arguments: Sendable {
        /// Nothing.
        case none
        /// Free words, shown as their placeholder ("QUERY...").
        case words(String)
        /// Exactly one of these actions (`cache stats`).
        case action([ActionSpec])
        /// One of photomap's commands, or none (`help [COMMAND]`).
        case command
    }

    /// One word a command takes as its action, such as `stats` in `photomap cache stats`.
    struct ActionSpec: Sendable {
        /// The word.
        let name: String
        /// One line for help and the man page.
        let summary: String
        /// The placeholder of the one word it takes after it (`NAME` of `fences add NAME`), if any.
        var argument: String? = nil
        /// Whether the command with no action does this one (`photomap cache` is `cache stats`).
        var isDefault = false

        /// "add NAME", or "list".
        var synopsis: String { name + (argument.map { " " + $0 } ?? "") }
    }

    /// The word that selects it ("places").
    let name: String
    /// One line for the command list.
    let summary: String
    /// Paragraphs shown by `--help` after the usage line.
    let discussion: String
    /// Its own options (the global ones are accepted too).
    let options: [OptionSpec]
    /// What it takes besides options.
    let arguments: Arguments
    /// Command lines showing it at work, for `--help` and the man page's EXAMPLES.
    let examples: [Example]

    /// A command line and what it does.
    struct Example: Sendable {
        /// The words after `photomap` ("places --json").
        let line: String
        /// What it does, in a few words.
        let meaning: String

        init(_ line: String, _ meaning: String) {
            self.line = line
            self.meaning = meaning
        }
    }

    init(
        name: String, summary: String, discussion: String = "", options: [OptionSpec], arguments: Arguments = .none,
        examples: [Example] = []
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.arguments = arguments
        self.examples = examples
    }

    /// Whether it takes positional arguments.
    var acceptsArguments: Bool {
        if case .none = arguments { return false }
        return true
    }

    /// Its actions, if it takes one.
    var actions: [ActionSpec] {
        if case let .action(actions) = arguments { return actions }
        return []
    }

    /// The action it does when given none, if any.
    var defaultAction: ActionSpec? { actions.first(where: \.isDefault) }

    /// The usage line: `photomap cache stats|verify|prune|clear [--json] [--max-size SIZE]`.
    var usage: String {
        var parts = ["photomap", name]
        switch arguments {
        case .none: break
        case let .words(placeholder): parts.append(placeholder)
        case .command: parts.append("[COMMAND]")
        case let .action(actions):
            let choice = actions.map(\.synopsis).joined(separator: "|")
            parts.append(defaultAction == nil ? choice : "[\(choice)]")
        }
        parts += options.map { $0.isRequired ? $0.synopsis : "[\($0.synopsis)]" }
        return parts.joined(separator: " ")
    }

    /// The usage error for a missing or unknown action: "cache needs one action: stats, verify, prune or clear".
    func actionError(_ given: String?) -> UsageError {
        let names = actions.map(\.name)
        let list = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        guard let given else { return UsageError("\(name) needs one action: \(list)") }
        let nearest = Suggestion.phrase(for: given, in: names)
        guard nearest.isEmpty else { return UsageError("unknown \(name) action '\(given)'\(nearest)") }
        return UsageError("unknown \(name) action '\(given)': use \(list)")
    }
}

/// A command's actions as an enum: its cases are the declaration (`CacheCommand.Action`).
protocol CommandAction: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    /// One line for help and the man page.
    var summary: String { get }
    /// The placeholder of the one word the action takes after it, if any (`NAME`).
    var argument: String? { get }
    /// The action the command does when given none, if any.
    static var defaultAction: Self? { get }
}

extension CommandAction {
    /// None: most actions take no word after them.
    var argument: String? { nil }

    /// None: most commands need their action named.
    static var defaultAction: Self? { nil }

    /// The declaration the parser, help, completions and man page read.
    static var declared: CommandSpec.Arguments {
        .action(
            allCases.map {
                CommandSpec.ActionSpec(
                    name: $0.rawValue, summary: $0.summary, argument: $0.argument,
                    isDefault: $0.rawValue == defaultAction?.rawValue)
            })
    }
}
