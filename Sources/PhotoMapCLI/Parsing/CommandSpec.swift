/// A command's name, usage, description and options: what the parser accepts and `--help` shows.
struct CommandSpec: Sendable {
    /// The word that selects it ("places").
    let name: String
    /// One line for the command list.
    let summary: String
    /// The usage line after `photomap`.
    let usage: String
    /// Paragraphs shown by `--help` after the usage line.
    let discussion: String
    /// Its own options (the global ones are accepted too).
    let options: [OptionSpec]
    /// Whether it takes positional arguments.
    let acceptsArguments: Bool

    init(name: String, summary: String, usage: String, discussion: String = "", options: [OptionSpec],
         acceptsArguments: Bool = false) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.discussion = discussion
        self.options = options
        self.acceptsArguments = acceptsArguments
    }
}
