// SPDX-License-Identifier: Apache-2.0
/// A command's own options decoded once from its command line, each through its declaration (`Option`,
/// `Flag`), with the usage errors of values that do not go together: the command reads these typed
/// values, never an option by its name.
protocol CommandOptions: Sendable {
    /// Decodes `parsed`; `global` holds the environment some options fall back to, and the source.
    init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError)
}

/// The options of a command that takes its action alone (`index rebuild`, `db status`).
struct ActionOptions<Action: CommandAction>: CommandOptions {
    var action: Action

    init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
        action = try parsed.action(Action.self)
    }
}
