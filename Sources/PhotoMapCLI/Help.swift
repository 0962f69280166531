// SPDX-License-Identifier: Apache-2.0
import PhotoMapKit

/// The text `--help` and `photomap help` print.
enum Help {
    /// The program's one-line description, for help and the man page.
    static let tagline = "browse Flickr-style places and photos on a map"

    /// What holds for every command, for help and the man page.
    static let notes = [
        "With no API key, answers come from the embedded catalog in Fixtures/ (no network).",
        "With a key, photomap paces its calls to stay under Flickr's limit of 3,600 an hour per key.",
        "Place names for `find`: GeoNames (geonames.org), CC BY 4.0.",
    ]

    /// Where a command's help sends the reader for the options every command takes.
    static let globalPointer = "Global options (--source, --cache, --offline, -q, -v, …): see photomap --help"

    static func general(_ interface: Interface) -> String {
        let width = interface.commands.map(\.name.count).max() ?? 0
        let list = interface.commands.map {
            "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)"
        }
        return """
            photomap — \(tagline)

            Usage: photomap [global options] COMMAND [options]
                   photomap help [COMMAND]      (or photomap COMMAND --help)

            Commands:
            \(list.joined(separator: "\n"))

            Global options (before or after the command):
            \(optionLines(interface.globalOptions))

            Environment (besides the variables the options name):
            \(lines(Environment.variables.filter { $0.option == nil }.map { ($0.name, $0.meaning) }))

            \(notes.joined(separator: "\n"))
            Data goes to standard output; errors, warnings and summaries to standard error as "photomap: …".
            Exit status: 0 success, 1 failure, 2 usage error.

            \(PageCredits.flickrNotice)
            """
    }

    /// A command's help: its usage, what it does, its actions, its own options, examples, and one line
    /// pointing at the global options.
    static func command(_ command: CommandSpec, globalOptions: [OptionSpec]) -> String {
        var text = "Usage: \(command.usage)\n\n"
        if !command.discussion.isEmpty { text += command.discussion + "\n\n" }
        if !command.actions.isEmpty { text += "Actions:\n\(lines(command.actions.map { ($0.name, $0.summary) }))\n\n" }
        if !command.options.isEmpty { text += "Options:\n\(optionLines(command.options))\n\n" }
        if !command.examples.isEmpty { text += "Examples:\n\(exampleLines(command.examples))\n\n" }
        return text + "\(globalPointer)\n\n\(PageCredits.flickrNotice)"
    }

    /// Examples as a shell reads them: `photomap LINE   # meaning`, the comments aligned.
    static func exampleLines(_ examples: [CommandSpec.Example]) -> String {
        lines(examples.map { ("photomap " + $0.line, "# " + $0.meaning) })
    }

    private static func optionLines(_ options: [OptionSpec]) -> String {
        lines(options.map { ($0.spellings, $0.fullHelp) })
    }

    /// Two aligned columns.
    private static func lines(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  \($0.0.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.1)" }
            .joined(separator: "\n")
    }
}
