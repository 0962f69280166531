// SPDX-License-Identifier: Apache-2.0
import PhotoMapKit

/// photomap.1 in man(7) format, written from the command and option declarations: the synopsis of
/// every command, its description, actions and options, the global options, the output formats,
/// the examples, the environment, the files, the exit status and where to read more. ASCII only (other characters as groff's `\[uXXXX]`), so
/// it reads the same whatever encoding groff assumes.
enum ManPage {
    static func render(_ interface: Interface, version: String) -> String {
        var page = [
            ".\\\" photomap.1, written by `photomap man` from photomap's command declarations.",
            ".TH PHOTOMAP 1 \"\" \"photomap \(version)\" \"User Commands\"",
            // Option names must not break at their hyphens; ragged right reads better in a terminal.
            ".nh", ".ad l",
            ".SH NAME", "photomap \\- " + text(Help.tagline),
            ".SH SYNOPSIS",
        ]
        page += interface.commands.flatMap { [".PP", ".in +4n", ".ti -4n", synopsis($0), ".in"] }
        page += [".SH DESCRIPTION"] + Help.notes.flatMap { [".PP", text($0)] }
        page += [
            ".PP", "Global options go before or after the command.",
            "Data (listings, JSON) goes to standard output; errors, warnings, summaries and progress go to"
                + " standard error as \\fBphotomap: \\fR..., errors as \\fBphotomap: error:\\fR followed by what went wrong"
                + " and what to do. \\fB\\-q\\fR leaves errors only; \\fB\\-v\\fR adds each decision."
                + " Colour is used on a terminal only, and never with \\fBNO_COLOR\\fR set.",
        ]
        page.append(".SH COMMANDS")
        for command in interface.commands {
            page += [".SS \(command.name)", text(command.summary) + "."]
            page += paragraphs(command.discussion)
            if !command.actions.isEmpty {
                page +=
                    [".PP", "Actions:"]
                    + command.actions.flatMap { [".TP", "\\fB\(text($0.name))\\fR", text($0.summary)] }
            }
            if !command.options.isEmpty {
                page += [".PP", "Options:"] + command.options.flatMap(option)
            }
        }
        page += [".SH GLOBAL OPTIONS"] + interface.globalOptions.flatMap(option)
        page += [
            ".SH OUTPUT FORMATS",
            "The listing commands take \\fB\\-\\-format\\fR (or \\fB\\-\\-json\\fR), and \\fB\\-\\-output\\fR"
                + " writes the listing to a file, whole or not at all.",
        ]
        page += [".TP", "\\fBtable\\fR", "aligned columns fitted to the terminal (the default)"]
        page += AnnotationFormat.allCases.flatMap { [".TP", "\\fB\($0.rawValue)\\fR", text($0.summary)] }
        page += [".SH EXAMPLES"]
        page += interface.commands.flatMap(\.examples).flatMap { example in
            [".TP", "\\fBphotomap " + text(example.line) + "\\fR", text(example.meaning)]
        }
        page += [".SH ENVIRONMENT"]
        page += Environment.variables.flatMap { variable in
            [
                ".TP", "\\fB\(text(variable.name))\\fR",
                text(variable.meaning + (variable.option.map { "; " + $0 + " wins over it" } ?? "")),
            ]
        }
        page += [".SH FILES"] + files.flatMap { [".TP", "\\fI\(text($0.path))\\fR", text($0.meaning)] }
        page += [
            ".SH EXIT STATUS", ".TP", "0", "success", ".TP", "1", "failure", ".TP", "2",
            "usage error (or a missing API key)",
        ]
        page += [
            ".SH SEE ALSO",
            "\\fBexiftool\\fR(1), \\fBcurl\\fR(1), \\fBpsql\\fR(1);"
                + " the user guide and the operations guide, /usr/share/doc/photomap/user\\-guide.md and"
                + " operations.md (docs/ in photomap's source); \\fBphotomap help\\fR \\fICOMMAND\\fR.",
        ]
        return page.joined(separator: "\n") + "\n"
    }

    /// The files photomap reads and writes, for FILES.
    static let files: [(path: String, meaning: String)] = [
        (
            "$XDG_CACHE_HOME/photomap/",
            "the cache folder (or ./Cache when it exists, --cache, PHOTOMAP_CACHE):"
                + " thumbnails, Flickr's answers, the search index and the imported photos' catalog"
        ),
        ("CACHE/index.sqlite", "the local search index (`photomap index rebuild` makes it anew)"),
        ("CACHE/local-catalog.sqlite", "the photos `photomap import` read, their tracks and the geofences"),
        ("CACHE/recent.json", "the photos recently viewed through `photomap serve`"),
        (
            "/usr/share/photomap/",
            "the embedded catalog and its images, the gazetteer, the basemap and the"
                + " pages' assets, as the Debian package installs them (a checkout's Fixtures/ when run from one)"
        ),
        ("DIR/.photomap-manifest", "what each page of an exported site was made from (`export --out DIR`)"),
    ]

    /// `photomap cache stats|verify|prune|clear [--json] [--max-size SIZE]` with fonts.
    private static func synopsis(_ command: CommandSpec) -> String {
        var parts = ["\\fBphotomap \(text(command.name))\\fR"]
        switch command.arguments {
        case .none: break
        case let .words(placeholder): parts.append("\\fI\(text(placeholder))\\fR")
        case .command: parts.append("[\\fICOMMAND\\fR]")
        case let .action(actions):
            parts.append(
                actions.map { "\\fB\(text($0.name))\\fR" + ($0.argument.map { " \\fI\(text($0))\\fR" } ?? "") }
                    .joined(separator: "|"))
        }
        parts += command.options.map { $0.isRequired ? optionTag($0) : "[" + optionTag($0) + "]" }
        return parts.joined(separator: " ")
    }

    /// An option's `.TP` entry.
    private static func option(_ option: OptionSpec) -> [String] {
        [".TP", optionTag(option), text(option.fullHelp)]
    }

    /// `\fB\-\-limit\fR \fIN\fR`, `[\fIFILE\fR]` for an optional value, `\fIFILE\fR...` for several.
    private static func optionTag(_ option: OptionSpec) -> String {
        let name =
            (option.short.map { "\\fB" + text("-\($0)") + "\\fR, " } ?? "") + "\\fB" + text("--" + option.name) + "\\fR"
        guard let valueName = option.valueName else { return name }
        let value = "\\fI" + text(valueName) + "\\fR"
        return name + " " + (option.valueIsOptional ? "[" + value + "]" : value + (option.takesMore ? "..." : ""))
    }

    /// Discussion text: its blank lines start paragraphs, the rest is filled by troff.
    private static func paragraphs(_ discussion: String) -> [String] {
        guard !discussion.isEmpty else { return [] }
        return [".PP"]
            + discussion.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.allSatisfy(\.isWhitespace) ? ".PP" : text(line.trimmingCharacters(in: .whitespaces))
            }
    }

    /// Text for a line of roff: backslashes and hyphens escaped, `code` in bold, non-ASCII as
    /// `\[uXXXX]`, and a leading dot or quote kept from being read as a request.
    static func text<S: StringProtocol>(_ value: S) -> String {
        var output = ""
        var bold = false
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": output += "\\e"
            case "-": output += "\\-"
            case "`":
                output += bold ? "\\fR" : "\\fB"
                bold.toggle()
            case _ where scalar.isASCII && scalar.value >= 0x20 && scalar.value != 0x7F:
                output.unicodeScalars.append(scalar)
            case _ where scalar.isASCII: output += " "
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        if bold { output += "\\fR" }
        return output.hasPrefix(".") || output.hasPrefix("'") ? "\\&" + output : output
    }
}
