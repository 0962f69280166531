// SPDX-License-Identifier: Apache-2.0
/// Takes a command line apart: `photomap [global options] COMMAND [options] [arguments]`,
/// global options accepted before or after the command, `--name value` or `--name=value`.
struct ArgumentParser {
    let globalOptions: [OptionSpec]
    let commands: [CommandSpec]

    /// The options answered before any command runs: how much is said, help and the version.
    static let standardOptions: [OptionSpec] = [
        quietFlag.spec, verboseFlag.spec,
        .flag("help", "show help (also -h and `photomap help [COMMAND]`)"),
        .flag("version", "print photomap's version and the versions of the C libraries it runs with"),
    ]

    /// `-q`, `--quiet`.
    static let quietFlag = Flag("quiet", "print errors only: no warning, summary or progress", short: "q")
    /// `-v`, `--verbose`.
    static let verboseFlag = Flag(
        "verbose", "also say each decision: a file skipped, a cache hit or miss", short: "v")

    /// How much `parsed` asks to be said; `--quiet` and `--verbose` together are a usage error.
    static func verbosity(_ parsed: ParsedArguments) throws(UsageError) -> Console.Verbosity {
        switch (parsed.has(quietFlag), parsed.has(verboseFlag)) {
        case (true, true): throw UsageError("--quiet and --verbose ask for opposites: give one of them")
        case (true, false): .quiet
        case (false, true): .verbose
        case (false, false): .normal
        }
    }

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var remaining = arguments[...]
        var onlyArguments = false
        while let token = remaining.popFirst() {
            if onlyArguments || !token.hasPrefix("-") || token == "-" || token.dropFirst().first?.isNumber == true {
                try take(positional: token, into: &parsed)
            } else if token == "--" {
                onlyArguments = true
            } else if token == "-h" || token == "--help" {
                parsed.wantsHelp = true
            } else if token == "--version" {
                parsed.wantsVersion = true
            } else if !token.hasPrefix("--"), let spec = option(short: token, in: parsed.command) {
                parsed.set(spec, "")
            } else if token.hasPrefix("--") {
                let body = token.dropFirst(2)
                let name = String(body.prefix(while: { $0 != "=" }))
                let inlineValue = body.contains("=") ? String(body.drop(while: { $0 != "=" }).dropFirst()) : nil
                guard let spec = option(named: name, in: parsed.command) else {
                    throw unknownOption(name, command: parsed.command)
                }
                if spec.valueName == nil {
                    guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                    parsed.set(spec, "")
                    continue
                }
                // The values are not repeated back: one may be a key or a password in a URL.
                if parsed.text(of: spec) != nil, !spec.takesMore {
                    throw UsageError("--\(name) takes one value and was given twice: give it once")
                }
                if let inlineValue {
                    parsed.set(spec, try spec.checked(inlineValue))
                    try takeMore(of: spec, from: &remaining, into: &parsed)
                } else if spec.valueIsOptional {
                    // The next word is the value unless it is an option, or (for commands taking
                    // arguments) does not look like a file name for it.
                    let acceptsArguments = parsed.command?.acceptsArguments ?? false
                    if let next = remaining.first, !next.hasPrefix("-"),
                        !acceptsArguments || next.lowercased().hasSuffix(".html")
                            || next.lowercased().hasSuffix(".htm")
                    {
                        parsed.set(spec, next)
                        remaining.removeFirst()
                    } else {
                        parsed.set(spec, "")
                    }
                } else if let next = remaining.first, !next.hasPrefix("--") {
                    // A value may start with one dash (a negative latitude); "--" starts the next option.
                    parsed.set(spec, try spec.checked(next))
                    remaining.removeFirst()
                    try takeMore(of: spec, from: &remaining, into: &parsed)
                } else {
                    throw UsageError("--\(name) needs a value: \(spec.synopsis)")
                }
            } else {
                throw UsageError("unknown option '\(token)' (options are spelled --name)")
            }
        }
        if !parsed.wantsHelp && !parsed.wantsVersion, let command = parsed.command {
            if !command.actions.isEmpty && parsed.arguments.isEmpty && command.defaultAction == nil {
                throw command.actionError(nil)
            }
            if let action = command.actions.first(where: { $0.name == parsed.arguments.first }),
                let argument = action.argument, parsed.arguments.count < 2
            {
                throw UsageError("\(command.name) \(action.name) needs \(argument)")
            }
            if let missing = command.options.first(where: {
                $0.isRequired && (parsed.text(of: $0) ?? "").isEmpty
            }) {
                throw UsageError("\(command.name) needs \(missing.synopsis)")
            }
        }
        return parsed
    }

    /// The words after an option's value that are values too (`--gpx a.gpx b.gpx c.gpx`, from a glob).
    private func takeMore(
        of spec: OptionSpec, from remaining: inout ArraySlice<String>, into parsed: inout ParsedArguments
    ) throws(UsageError) {
        while let more = remaining.first, spec.takes(more: more) {
            parsed.set(spec, try spec.checked(more))
            remaining.removeFirst()
        }
    }

    private func take(positional token: String, into parsed: inout ParsedArguments) throws(UsageError) {
        guard let command = parsed.command else {
            parsed.command = try command(named: token)
            return
        }
        guard command.acceptsArguments else {
            throw UsageError("'\(command.name)' takes no argument '\(token)'; see photomap \(command.name) --help")
        }
        if !command.actions.isEmpty {
            // The action, then the one word it may take (`fences add NAME`).
            if let first = parsed.arguments.first, parsed.arguments.count == 1,
                command.actions.first(where: { $0.name == first })?.argument != nil
            {
                return parsed.arguments.append(token)
            }
            guard parsed.arguments.isEmpty
            else { throw UsageError("\(command.name) takes one action; '\(token)' is one too many") }
            guard command.actions.contains(where: { $0.name == token }) else { throw command.actionError(token) }
        }
        parsed.arguments.append(token)
    }

    /// The command called `name`; else the usage error naming the nearest one, or listing them all.
    func command(named name: String) throws(UsageError) -> CommandSpec {
        if let command = commands.first(where: { $0.name == name }) { return command }
        let names = commands.map(\.name)
        let nearest = Suggestion.phrase(for: name, in: names)
        throw UsageError(
            "unknown command '\(name)'"
                + (nearest.isEmpty ? "; commands: \(names.joined(separator: ", "))" : nearest))
    }

    private func option(named name: String, in command: CommandSpec?) -> OptionSpec? {
        globalOptions.first { $0.name == name } ?? command?.options.first { $0.name == name }
    }

    /// The flag a one-letter spelling such as `-q` stands for.
    private func option(short token: String, in command: CommandSpec?) -> OptionSpec? {
        guard token.count == 2, let letter = token.last else { return nil }
        return (globalOptions + (command?.options ?? [])).first { $0.short == letter }
    }

    private func unknownOption(_ name: String, command: CommandSpec?) -> UsageError {
        if command == nil, let owner = commands.first(where: { $0.options.contains { $0.name == name } }) {
            return UsageError("--\(name) belongs after the command: photomap \(owner.name) --\(name) …")
        }
        let scope = command.map { "photomap \($0.name)" } ?? "photomap"
        let known = (globalOptions + (command?.options ?? [])).map { "--" + $0.name }
        let nearest = Suggestion.phrase(for: "--" + name, in: known, quoted: false)
        guard nearest.isEmpty else { return UsageError("unknown option --\(name) for \(scope)\(nearest)") }
        return UsageError("unknown option --\(name) for \(scope); see \(scope) --help")
    }
}
