// SPDX-License-Identifier: Apache-2.0
/// `photomap completions fish`: `complete` commands for fish, written from the declarations:
/// the commands (until one is given), each command's actions and options with their values
/// (choices, files, folders), and the global options everywhere.
enum FishCompletion {
    static func script(_ interface: Interface) -> String {
        let names = interface.commands.map(\.name).joined(separator: " ")
        var lines = [
            "# fish completion for photomap, written by `photomap completions fish` from its command declarations.",
            "# Load it with: photomap completions fish | source   (or save it as ~/.config/fish/completions/photomap.fish)",
            "complete -c photomap -f",
        ]
        lines += interface.commands.map { command in
            "complete -c photomap -n 'not __fish_seen_subcommand_from \(names)' -a \(quoted(command.name)) -d \(quoted(command.summary))"
        }
        lines += interface.globalOptions.map { option(nil, $0) }
        for command in interface.commands {
            let actions = command.actions.map(\.name).joined(separator: " ")
            lines += command.actions.map { action in
                "complete -c photomap -n '__fish_seen_subcommand_from \(command.name); and not __fish_seen_subcommand_from \(actions)'"
                    + " -a \(quoted(action.name)) -d \(quoted(action.summary))"
            }
            lines += command.options.map { option(command.name, $0) }
            if case .command = command.arguments {
                lines.append(
                    "complete -c photomap -n '__fish_seen_subcommand_from \(command.name)' -a \(quoted(names))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One option's `complete` line, for one command or (nil) all.
    private static func option(_ command: String?, _ option: OptionSpec) -> String {
        var line = "complete -c photomap"
        if let command { line += " -n '__fish_seen_subcommand_from \(command)'" }
        line += " -l \(option.name)"
        switch option.value {
        case nil: break
        case .text, .integer, .number, .size, .placeID: line += " -x"
        case let .choice(words): line += " -x -a \(quoted(words.joined(separator: " ")))"
        case .file: line += " -r -F"
        case .directory: line += " -x -a '(__fish_complete_directories (commandline -ct))'"
        }
        return line + " -d \(quoted(option.help))"
    }

    /// A single-quoted fish word: backslashes and quotes escaped.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
