// SPDX-License-Identifier: Apache-2.0
/// `photomap help [COMMAND]`: the same text as `photomap --help` and `photomap COMMAND --help`, as git
/// and cargo offer it.
enum HelpCommand {
    static let spec = CommandSpec(
        name: "help",
        summary: "show how to use photomap, or one of its commands (as --help does)",
        options: [],
        arguments: .command,
        examples: [
            .init("help", "the commands and the global options"),
            .init("help photos", "the photos command's options and examples, as `photomap photos --help`"),
        ])

    /// The help `parsed` asks for: `help`, `help COMMAND`, `--help` or `COMMAND --help`.
    static func text(_ parsed: ParsedArguments, interface: Interface) throws(UsageError) -> String {
        guard let command = parsed.command else { return Help.general(interface) }
        guard command.name == spec.name, !parsed.wantsHelp else {
            return Help.command(command, globalOptions: interface.globalOptions)
        }
        guard let name = parsed.arguments.first else { return Help.general(interface) }
        guard parsed.arguments.count == 1 else {
            throw UsageError("help takes one command, not \(parsed.arguments.count): photomap help \(name)")
        }
        return Help.command(try interface.parser.command(named: name), globalOptions: interface.globalOptions)
    }
}
