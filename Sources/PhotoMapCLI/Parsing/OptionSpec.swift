/// One command-line option: its name, whether it takes a value, and its line in `--help`.
struct OptionSpec: Sendable {
    /// The long name without dashes ("limit").
    let name: String
    /// The placeholder of its value ("N"), or nil for a flag.
    let valueName: String?
    /// One line for `--help`.
    let help: String

    /// A flag such as `--json`.
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    /// An option with a value such as `--limit N`.
    static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help)
    }

    /// "--limit N", as help shows it.
    var synopsis: String {
        valueName.map { "--\(name) \($0)" } ?? "--\(name)"
    }
}
