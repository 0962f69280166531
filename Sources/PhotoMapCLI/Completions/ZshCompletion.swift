// SPDX-License-Identifier: Apache-2.0
/// `photomap completions zsh`: a `_photomap` function for zsh's completion system, written from
/// the declarations with `_arguments`: each option with its help and its value's completion
/// (choices, files, folders), the commands described, and each command's actions.
enum ZshCompletion {
    static func script(_ interface: Interface) -> String {
        """
        #compdef photomap
        # zsh completion for photomap, written by `photomap completions zsh` from its command declarations.
        # Load it with: source <(photomap completions zsh)   (after compinit), or save it as _photomap in $fpath.
        _photomap() {
            local curcontext=$curcontext state line
            local -a global_options commands
            global_options=(
        \(interface.globalOptions.map { "        " + optionSpec($0) }.joined(separator: "\n"))
            )
            commands=(
        \(interface.commands.map { "        " + quoted("\(escaped($0.name)):\($0.summary)") }.joined(separator: "\n"))
            )
            _arguments -C $global_options ': :->command' '*:: :->argument' && return
            case $state in
                command) _describe -t commands 'photomap command' commands ;;
                argument)
                    case $line[1] in
        \(interface.commands.map { commandCase($0, names: interface.commands.map(\.name)) }.joined(separator: "\n"))
                    esac
                    ;;
            esac
        }
        if [[ $funcstack[1] == _photomap ]]; then _photomap "$@"; else compdef _photomap photomap; fi

        """
    }

    /// One command's branch: its options and the globals, then its action, words or a command's name.
    private static func commandCase(_ command: CommandSpec, names: [String]) -> String {
        let arguments: String
        switch command.arguments {
        case .none: arguments = ""
        case let .words(placeholder): arguments = " " + quoted("*:\(escaped(placeholder.lowercased())): ")
        case .command: arguments = " " + quoted("1:command:(\(names.joined(separator: " ")))")
        case let .action(actions):
            let described = actions.map { "\(escaped($0.name))\\:\(doubleQuoted($0.summary))" }.joined(separator: " ")
            arguments = " " + quoted("1:action:((\(described)))")
        }
        let options = command.options.map { " " + optionSpec($0) }.joined()
        return "                \(command.name)) _arguments $global_options\(options)\(arguments) ;;"
    }

    /// `'--name=[help]:value:action'`, in _arguments' syntax.
    private static func optionSpec(_ option: OptionSpec) -> String {
        let head = "--\(option.name)" + (option.value == nil ? "" : "=") + "[\(escaped(option.help))]"
        guard let value = option.value, let valueName = option.valueName else { return quoted(head) }
        let action: String
        switch value {
        case .text, .integer, .number, .size, .placeID: action = " "
        case let .choice(words): action = "(\(words.joined(separator: " ")))"
        case .file: action = "_files"
        case .directory: action = "_files -/"
        }
        return quoted(head + (option.valueIsOptional ? "::" : ":") + escaped(valueName.lowercased()) + ":" + action)
    }

    /// Text inside _arguments' specs: brackets, colons and backslashes are its syntax.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "[]:\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// A description inside `((word\:"description"))`.
    private static func doubleQuoted(_ text: String) -> String {
        "\""
            + escaped(text).replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "$", with: "\\$")
            .replacingOccurrences(of: "`", with: "\\`") + "\""
    }

    /// A single-quoted shell word.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
