// SPDX-License-Identifier: Apache-2.0
/// Everything photomap's command line accepts, as declared: what the parser, `--help`, the shell
/// completions and the man page all read.
struct Interface: Sendable {
    /// The commands, in the order help lists them.
    let commands: [CommandSpec]
    /// The options every command accepts, the standard ones (`--help`, `--version`) last.
    let globalOptions: [OptionSpec]

    /// The parser for this command line.
    var parser: ArgumentParser {
        ArgumentParser(globalOptions: globalOptions, commands: commands)
    }
}
