/// One command-line option: its name, whether it takes a value, and its line in `--help`.
struct OptionSpec: Sendable {
    /// The long name without dashes ("limit").
    let name: String
    /// The placeholder of its value ("N"), or nil for a flag.
    let valueName: String?
    /// One line for `--help`.
    let help: String
    /// Whether the value may be left out (`--map` or `--map FILE`).
    var valueIsOptional = false

    /// A flag such as `--json`.
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    /// An option with a value such as `--limit N`.
    static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help)
    }

    /// An option whose value may be left out, such as `--map [FILE]`.
    static func optionalValue(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, valueIsOptional: true)
    }

    /// "--limit N" or "--map [FILE]", as help shows it.
    var synopsis: String {
        guard let valueName else { return "--\(name)" }
        return valueIsOptional ? "--\(name) [\(valueName)]" : "--\(name) \(valueName)"
    }
}
