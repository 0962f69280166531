// SPDX-License-Identifier: Apache-2.0
/// `photomap completions bash`: a completion function for bash, written from the declarations.
/// It finds the command on the line (skipping option values, in either `--name value` or
/// `--name=value` form, which bash splits at "="), then offers an option's values (its choices,
/// files or folders), the options of the command, its actions, or the commands.
enum BashCompletion {
    static func script(_ interface: Interface) -> String {
        let everyOption = interface.globalOptions + interface.commands.flatMap(\.options)
        let takingValues = Set(
            everyOption.filter { $0.value != nil && !$0.valueIsOptional }
                .map { "--" + $0.name }
        ).sorted()
        // Each command with actions: its actions, as the first argument.
        let actionCases = interface.commands.filter { !$0.actions.isEmpty }.map { command in
            "        \(command.name)) (( arguments == 0 )) && COMPREPLY=($(compgen -W \"\(command.actions.map(\.name).joined(separator: " "))\" -- \"$cur\")) ;;"
        }.joined(separator: "\n")
        let names = interface.commands.map(\.name).joined(separator: " ")
        // A command taking a command's name (`help COMMAND`): the names, as its one argument.
        let commandCases = interface.commands.filter {
            if case .command = $0.arguments { return true }
            return false
        }.map { "        \($0.name)) (( arguments == 0 )) && COMPREPLY=($(compgen -W \"\(names)\" -- \"$cur\")) ;;" }
            .joined(separator: "\n")
        return """
            # bash completion for photomap, written by `photomap completions bash` from its command declarations.
            # Load it with: source <(photomap completions bash)
            _photomap() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
                # bash splits --name=value at "=": complete the value of the option before it.
                if [[ $cur == "=" ]]; then
                    cur=""
                elif [[ $prev == "=" ]]; then
                    prev=${COMP_WORDS[COMP_CWORD-2]}
                fi
                local command="" arguments=0 i=1 word
                while (( i < COMP_CWORD )); do
                    word=${COMP_WORDS[i]}
                    case $word in
                        \(takingValues.joined(separator: "|")))
                            (( i += 1 ))
                            [[ ${COMP_WORDS[i]} == "=" ]] && (( i += 1 ))
                            ;;
                        -*) ;;
                        =) (( i += 1 )) ;;
                        *) if [[ -z $command ]]; then command=$word; else (( arguments += 1 )); fi ;;
                    esac
                    (( i += 1 ))
                done
                case "$command $prev" in
            \(valueCases(interface))
                esac
                if [[ $cur == -* ]]; then
                    case $command in
            \(interface.commands.map { optionCase($0.name, $0.options + interface.globalOptions) }.joined(separator: "\n"))
            \(optionCase("*", interface.globalOptions))
                    esac
                    return
                fi
                case $command in
                    "") COMPREPLY=($(compgen -W "\(interface.commands.map(\.name).joined(separator: " "))" -- "$cur")) ;;
            \(actionCases)
            \(commandCases)
                esac
            }
            complete -F _photomap photomap

            """
    }

    /// `case "$command $prev"` branches: what each option's value completes to, grouped by action.
    private static func valueCases(_ interface: Interface) -> String {
        var patterns: [(action: String, patterns: [String])] = []
        let scoped =
            interface.globalOptions.map { ("*", $0) }
            + interface.commands.flatMap { command in command.options.map { (command.name, $0) } }
        for (command, option) in scoped {
            guard let value = option.value else { continue }
            let pattern = command == "*" ? "*\" --\(option.name)\"" : "\"\(command) --\(option.name)\""
            let action = valueAction(value, optional: option.valueIsOptional)
            if let index = patterns.firstIndex(where: { $0.action == action }) {
                patterns[index].patterns.append(pattern)
            } else {
                patterns.append((action, [pattern]))
            }
        }
        return patterns.map { "        \($0.patterns.joined(separator: "|"))) \($0.action) ;;" }.joined(separator: "\n")
    }

    /// What a value completes to; an optional value (`--map [FILE]`) gives way to options.
    private static func valueAction(_ value: OptionSpec.Value, optional: Bool) -> String {
        let reply: String
        switch value {
        case .text, .integer, .number, .size, .placeID: reply = "COMPREPLY=()"
        case let .choice(words): reply = "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
        case .file: reply = "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .directory: reply = "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\"))"
        }
        return optional ? "if [[ $cur != -* ]]; then \(reply); return; fi" : "\(reply); return"
    }

    /// One `case $command` branch offering these options.
    private static func optionCase(_ command: String, _ options: [OptionSpec]) -> String {
        let names = options.map { "--" + $0.name }.joined(separator: " ")
        return "            \(command == "*" ? "*" : command)) COMPREPLY=($(compgen -W \"\(names)\" -- \"$cur\")) ;;"
    }
}
