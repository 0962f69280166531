import Foundation

/// Where a command writes: standard output for results, standard error for errors, warnings and progress.
/// Tests pass closures that collect the text instead.
public struct Console: Sendable {
    /// Writes to standard output.
    let out: @Sendable (String) -> Void
    /// Writes to standard error.
    let err: @Sendable (String) -> Void
    /// Whether standard output is a terminal (tables are fitted to it).
    let outputIsTerminal: Bool
    /// Whether standard error is a terminal (progress is shown only then).
    let errorIsTerminal: Bool
    /// The terminal's width in columns, when known.
    let width: Int?

    /// A console over the given closures.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                outputIsTerminal: Bool = false, errorIsTerminal: Bool = false, width: Int? = nil) {
        self.out = out
        self.err = err
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.width = width
    }

    /// The process's standard output and error.
    public static func standard(environment: [String: String]) -> Console {
        let outputIsTerminal = isatty(STDOUT_FILENO) == 1
        var size = winsize()
        let measured = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
        return Console(out: { FileHandle.standardOutput.write(Data($0.utf8)) },
                       err: { FileHandle.standardError.write(Data($0.utf8)) },
                       outputIsTerminal: outputIsTerminal, errorIsTerminal: isatty(STDERR_FILENO) == 1,
                       width: outputIsTerminal ? measured ?? environment["COLUMNS"].flatMap { Int($0) } : nil)
    }

    /// Prints a line on standard output.
    func print(_ line: String = "") { out(line + "\n") }

    /// Prints `photomap: warning: …` on standard error.
    func warn(_ message: String) { err("photomap: warning: \(message)\n") }
}
