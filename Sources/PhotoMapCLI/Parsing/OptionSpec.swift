/// One command-line option, declared once: its name, what its value is, and its line in `--help`.
/// The parser, `--help`, the shell completions and the man page all read this declaration.
struct OptionSpec: Sendable {
    /// What an option's value is: what the parser checks and completions offer.
    enum Value: Sendable, Equatable {
        /// Free text, shown as its placeholder ("N", "URL").
        case text(String)
        /// A file's path.
        case file(String)
        /// A folder's path.
        case directory(String)
        /// One of these words, checked by the parser.
        case choice([String])
    }

    /// The long name without dashes ("limit").
    let name: String
    /// What its value is, or nil for a flag.
    let value: Value?
    /// One line for `--help`.
    let help: String
    /// Whether the value may be left out (`--map` or `--map FILE`).
    var valueIsOptional = false
    /// Whether the command cannot run without it (`photos --place ID`).
    var isRequired = false

    /// A flag such as `--json`.
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help)
    }

    /// An option with a value such as `--limit N` or `--out DIR`.
    static func value(_ name: String, _ value: Value, _ help: String, required: Bool = false) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, isRequired: required)
    }

    /// An option whose value may be left out, such as `--map [FILE]`.
    static func optionalValue(_ name: String, _ value: Value, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, valueIsOptional: true)
    }

    /// The placeholder of its value ("N", "fixtures|flickr"), or nil for a flag.
    var valueName: String? {
        switch value {
        case nil: nil
        case let .text(placeholder), let .file(placeholder), let .directory(placeholder): placeholder
        case let .choice(words): words.joined(separator: "|")
        }
    }

    /// The words the value must be one of, if it is a choice.
    var choices: [String]? {
        if case let .choice(words) = value { return words }
        return nil
    }

    /// "--limit N" or "--map [FILE]", as help shows it.
    var synopsis: String {
        guard let valueName else { return "--\(name)" }
        return valueIsOptional ? "--\(name) [\(valueName)]" : "--\(name) \(valueName)"
    }

    /// The usage error for a value outside its choices: "--source must be fixtures or flickr, not 'bing'".
    func notAChoice(_ given: String) -> UsageError {
        let words = choices ?? []
        let list = words.count > 2
            ? "one of " + words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
            : words.joined(separator: " or ")
        return UsageError("--\(name) must be \(list), not '\(given)'")
    }
}
