// SPDX-License-Identifier: Apache-2.0
/// The command line taken apart: which command, which options with which values, which arguments.
struct ParsedArguments: Sendable {
    /// The command named, if any.
    var command: CommandSpec?
    /// Options given, by name; a flag's value is "" (the last of a repeated option wins). Private: a
    /// command reads an option through its declaration (a typed `Option` or `Flag`), never by a name
    /// that could drift from it.
    private var options: [String: String] = [:]
    /// Every value of each option, in order (`--gpx A --gpx B`).
    private var allValues: [String: [String]] = [:]
    /// Positional arguments after the command.
    var arguments: [String] = []
    /// Whether `--help` or `-h` was given.
    var wantsHelp = false
    /// Whether `--version` was given.
    var wantsVersion = false

    /// Records an option's value (the last one is `value`, all of them `all`).
    mutating func set(_ spec: OptionSpec, _ value: String) {
        options[spec.name] = value
        allValues[spec.name, default: []].append(value)
    }

    /// The text the parser took for a declared option, if it was given (the parser's own checks).
    func text(of spec: OptionSpec) -> String? { options[spec.name] }

    /// A typed option's value: given, else its declared default, else nil.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        guard let text = options[option.name] ?? option.spec.defaultValue else { return nil }
        return try option.decode(text)
    }

    /// Every value a repeated typed option was given, in order (`--gpx A --gpx B`).
    func all<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
        var decoded: [Value] = []
        for text in allValues[option.name] ?? [] { decoded.append(try option.decode(text)) }
        return decoded
    }

    /// A typed option's text as it was typed, if it was given: for a message quoting it.
    func text<Value>(_ option: Option<Value>) -> String? { options[option.name] }

    /// Whether a typed option was given (its default does not count).
    func has<Value>(_ option: Option<Value>) -> Bool { options[option.name] != nil }

    /// Whether a flag was given.
    func has(_ flag: Flag) -> Bool { options[flag.name] != nil }

    /// The command's action (the parser has checked it is one of the declared ones).
    func action<Action: CommandAction>(_: Action.Type) throws(UsageError) -> Action {
        guard let word = arguments.first ?? command?.defaultAction?.name, let action = Action(rawValue: word) else {
            throw command.map { $0.actionError(arguments.first) } ?? UsageError("no command given")
        }
        return action
    }
}
