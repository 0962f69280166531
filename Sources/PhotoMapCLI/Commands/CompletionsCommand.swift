// SPDX-License-Identifier: Apache-2.0
/// `photomap completions bash|zsh|fish`: a shell completion script, written from the same
/// declarations as the parser and `--help`, so the two never disagree.
enum CompletionsCommand {
    static let spec = CommandSpec(
        name: "completions",
        summary: "print a shell completion script (bash, zsh or fish)",
        discussion: """
            Prints a script that completes photomap's commands, options and option values (sources, formats,
            actions, files and folders). Load it in the current shell, e.g. `source <(photomap completions bash)`,
            or save it where the shell looks: bash ~/.local/share/bash-completion/completions/photomap,
            zsh a file _photomap in a folder of $fpath, fish ~/.config/fish/completions/photomap.fish.
            """,
        options: [],
        arguments: Shell.declared,
        examples: [
            .init("completions bash > ~/.local/share/bash-completion/completions/photomap", "bash completion"),
            .init("completions fish | source", "fish, in the current shell"),
        ])

    /// The shells it writes for.
    enum Shell: String, CommandAction {
        case bash, zsh, fish

        var summary: String {
            switch self {
            case .bash: "a completion function for bash"
            case .zsh: "a _photomap function for zsh's completion system"
            case .fish: "complete commands for fish"
            }
        }
    }

    static func run(_ options: ActionOptions<Shell>, configuration: Services, console: Console) throws {
        let interface = PhotoMap.interface
        switch options.action {
        case .bash: console.out(BashCompletion.script(interface))
        case .zsh: console.out(ZshCompletion.script(interface))
        case .fish: console.out(FishCompletion.script(interface))
        }
    }
}
