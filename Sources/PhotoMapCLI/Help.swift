import PhotoMapKit

/// The text `--help` prints.
enum Help {
    static func general(commands: [CommandSpec], globalOptions: [OptionSpec]) -> String {
        let width = commands.map(\.name.count).max() ?? 0
        let list = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
        photomap — browse Flickr-style places and photos on a map

        Usage: photomap [global options] COMMAND [options]
               photomap COMMAND --help

        Commands:
        \(list.joined(separator: "\n"))

        Global options (before or after the command):
        \(optionLines(globalOptions + [.flag("help", "show help")]))

        With no API key, answers come from the embedded catalog in Fixtures/ (no network).
        With a key, photomap paces its calls to stay under Flickr's limit of 3,600 an hour per key.
        Place names for `find`: GeoNames (geonames.org), CC BY 4.0.
        Exit status: 0 success, 1 failure, 2 usage error.

        \(PageCredits.flickrNotice)
        """
    }

    static func command(_ command: CommandSpec, globalOptions: [OptionSpec]) -> String {
        var text = "Usage: \(command.usage)\n\n"
        if !command.discussion.isEmpty { text += command.discussion + "\n\n" }
        if !command.options.isEmpty { text += "Options:\n\(optionLines(command.options))\n\n" }
        text += "Global options:\n\(optionLines(globalOptions))\n\n\(PageCredits.flickrNotice)"
        return text
    }

    private static func optionLines(_ options: [OptionSpec]) -> String {
        let width = options.map(\.synopsis.count).max() ?? 0
        return options.map { "  \($0.synopsis.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.help)" }
            .joined(separator: "\n")
    }
}
