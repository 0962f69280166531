// SPDX-License-Identifier: Apache-2.0
/// The command line taken apart: which command, which options with which values, which arguments.
struct ParsedArguments: Sendable {
    /// The command named, if any.
    var command: CommandSpec?
    /// Options given, by name; a flag's value is "" (the last of a repeated option wins).
    var options: [String: String] = [:]
    /// Every value of each option, in order (`--gpx A --gpx B`).
    private(set) var allValues: [String: [String]] = [:]
    /// Positional arguments after the command.
    var arguments: [String] = []
    /// Whether `--help` or `-h` was given.
    var wantsHelp = false
    /// Whether `--version` was given.
    var wantsVersion = false

    /// Whether a flag or option was given.
    func has(_ name: String) -> Bool { options[name] != nil }

    /// An option's text as the parser took it, by name; commands read their values through typed keys
    /// (`value(_: Option)`), which name the option by its declaration.
    func value(_ name: String) -> String? { options[name] }

    /// Every value a repeated option was given, in order.
    func values(_ name: String) -> [String] { allValues[name] ?? [] }

    /// Records an option's value (the last one is `value`, all of them `values`).
    mutating func set(_ name: String, _ value: String) {
        options[name] = value
        allValues[name, default: []].append(value)
    }

    /// A typed option's value: given, else its declared default, else nil.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        guard let text = options[option.name] ?? option.spec.defaultValue else { return nil }
        return try option.decode(text)
    }

    /// Every value a repeated typed option was given, in order (`--gpx A --gpx B`).
    func all<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
        var decoded: [Value] = []
        for text in values(option.name) { decoded.append(try option.decode(text)) }
        return decoded
    }

    /// A typed option's text as it was typed, if it was given: for a message quoting it.
    func text<Value>(_ option: Option<Value>) -> String? { options[option.name] }

    /// Whether a typed option was given (its default does not count).
    func has<Value>(_ option: Option<Value>) -> Bool { has(option.name) }

    /// Whether a flag was given.
    func has(_ flag: Flag) -> Bool { has(flag.name) }

    /// The command's action (the parser has checked it is one of the declared ones).
    func action<Action: CommandAction>(_: Action.Type) throws(UsageError) -> Action {
        guard let word = arguments.first ?? command?.defaultAction?.name, let action = Action(rawValue: word) else {
            throw command.map { $0.actionError(arguments.first) } ?? UsageError("no command given")
        }
        return action
    }
}
