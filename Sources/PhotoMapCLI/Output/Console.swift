// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// Where a command writes: standard output for data (listings, JSON, pages' text), standard error for
/// every message — errors, warnings, summaries, progress and, with `--verbose`, each decision — as
/// `photomap: …`. Tests pass closures that collect the text instead.
public struct Console: Sendable {
    /// How much a command says besides its data and its errors (`-q`, the default, `-v`).
    public enum Verbosity: Int, Sendable, Comparable {
        /// Errors only: no warning, summary or progress.
        case quiet
        /// Warnings, summaries and progress on a terminal.
        case normal
        /// Also each decision: a file skipped, a cache hit or miss.
        case verbose

        public static func < (left: Verbosity, right: Verbosity) -> Bool { left.rawValue < right.rawValue }
    }

    /// Writes to standard output.
    let out: @Sendable (String) -> Void
    /// Writes to standard error.
    let err: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress is shown only then).
    let errorIsTerminal: Bool
    /// The terminal's width in columns, when known.
    let width: Int?
    /// How much is said on standard error.
    private(set) var verbosity = Verbosity.normal
    /// Whether "error:" and "warning:" are coloured: on a terminal, and never with NO_COLOR set.
    let colours: Bool

    /// A console over the given closures.
    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        errorIsTerminal: Bool = false, width: Int? = nil, colours: Bool = false
    ) {
        self.out = out
        self.err = err
        self.errorIsTerminal = errorIsTerminal
        self.width = width
        self.colours = colours
    }

    /// The process's standard output and error.
    public static func standard(environment: [String: String]) -> Console {
        let outputIsTerminal = isatty(STDOUT_FILENO) == 1
        let errorIsTerminal = isatty(STDERR_FILENO) == 1
        var size = winsize()
        let measured = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
        return Console(
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            err: { FileHandle.standardError.write(Data($0.utf8)) },
            errorIsTerminal: errorIsTerminal,
            width: outputIsTerminal ? measured ?? environment["COLUMNS"].flatMap { Int($0) } : nil,
            colours: usesColour(errorIsTerminal: errorIsTerminal, environment: environment))
    }

    /// Colour on a terminal that shows it, unless NO_COLOR is set to anything (no-color.org).
    static func usesColour(errorIsTerminal: Bool, environment: [String: String]) -> Bool {
        errorIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The same console saying as much as `verbosity` asks.
    func saying(_ verbosity: Verbosity) -> Console {
        var console = self
        console.verbosity = verbosity
        return console
    }

    /// Whether a progress line is drawn: on a terminal, unless `--quiet`.
    var showsProgress: Bool { errorIsTerminal && verbosity > .quiet }

    /// Prints a line on standard output.
    func print(_ line: String = "") { out(line + "\n") }

    /// Prints `value` as an indented JSON object with sorted keys (the `--json` of `cache` and `import`).
    func printJSON(_ value: some Encodable) throws {
        print(try JSONOutput.prettyText(value))
    }

    /// Prints `photomap: …` on standard error unless `--quiet`: a summary, what was written where.
    func note(_ message: String) {
        guard verbosity > .quiet else { return }
        err("photomap: \(TerminalText.sanitized(message))\n")
    }

    /// Prints `photomap: …` on standard error with `--verbose` only: one decision (a file skipped, a
    /// cache miss). `message` is made only then.
    func detail(_ message: @autoclosure () -> String) {
        guard verbosity == .verbose else { return }
        err("photomap: \(TerminalText.sanitized(message()))\n")
    }

    /// `detail` for a library's trace hook, or nil unless `--verbose`, so that nothing is made for it.
    var trace: (@Sendable (String) -> Void)? {
        guard verbosity == .verbose else { return nil }
        return { [self] message in detail(message) }
    }

    /// Prints `photomap: warning: …` on standard error unless `--quiet`, control characters made harmless.
    func warn(_ message: String) {
        guard verbosity > .quiet else { return }
        err("photomap: \(label("warning:", colour: "33"))\(TerminalText.sanitized(message))\n")
    }

    /// Prints `photomap: error: …` on standard error, control characters made harmless.
    func error(_ message: String) {
        err("photomap: \(label("error:", colour: "31"))\(TerminalText.sanitized(message))\n")
    }

    /// "error: " in bold and the SGR colour when colours are on.
    private func label(_ word: String, colour: String) -> String {
        colours ? "\u{1B}[1;\(colour)m\(word)\u{1B}[0m " : word + " "
    }

    /// The same console with `secret` replaced wherever it would be printed: an API key must never
    /// reach output, even inside a message from a library or a server.
    func redacting(_ secret: String) -> Console {
        guard secret.count >= 4 else { return self }
        let (out, err) = (out, err)
        return Console(
            out: { out(Self.redact($0, secret: secret)) }, err: { err(Self.redact($0, secret: secret)) },
            errorIsTerminal: errorIsTerminal, width: width, colours: colours
        ).saying(verbosity)
    }

    /// `text` with `secret` (an API key of 4 characters or more) replaced by "[api key]". Every
    /// listing passes through here: a byte search first, so text without the key is not rebuilt.
    static func redact(_ text: String, secret: String) -> String {
        guard secret.count >= 4, contains(text, secret) else { return text }
        return text.replacingOccurrences(of: secret, with: "[api key]")
    }

    /// Whether `text` holds the bytes of `part` (every literal match holds them).
    private static func contains(_ text: String, _ part: String) -> Bool {
        var text = text, part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard let base = haystack.baseAddress, let wanted = needle.baseAddress, let first = needle.first,
                    needle.count <= haystack.count
                else { return false }
                var start = 0
                // memchr finds each candidate start in C; memcmp checks the rest.
                while start + needle.count <= haystack.count,
                    let found = memchr(base + start, Int32(first), haystack.count - needle.count + 1 - start)
                {
                    start = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + start, wanted, needle.count) == 0 { return true }
                    start += 1
                }
                return false
            }
        }
    }
}
