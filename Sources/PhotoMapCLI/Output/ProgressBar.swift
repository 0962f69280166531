import Foundation
import PhotoMapKit

/// A one-line progress bar on standard error — done/total, rate and time left — drawn only when
/// standard error is a terminal (and not `--quiet`), never into pipes or files.
final class ProgressBar: Sendable {
    private let console: Console
    private let label: String
    private let started = Date()
    /// When it was last drawn, and whether anything is on the line.
    private let state = Locked((lastDrawn: Date.distantPast, drawn: false))

    init(console: Console, label: String) {
        self.console = console
        self.label = label
    }

    /// Redraws (at most ten times a second, and always for the last step).
    func update(done: Int, total: Int) {
        guard console.showsProgress, total > 0 else { return }
        state.withLock { state in
            let now = Date()
            guard done == total || now.timeIntervalSince(state.lastDrawn) >= 0.1 else { return }
            state = (now, true)
            console.err(
                "\r\u{1B}[K"
                    + Self.line(label: label, done: done, total: total, elapsed: now.timeIntervalSince(started)))
        }
    }

    /// Clears the line so what follows starts clean.
    func finish() {
        state.withLock { state in
            if state.drawn { console.err("\r\u{1B}[K") }
            state.drawn = false
        }
    }

    /// "prefetching  812/2000 [########------------]  412/s  3s left"
    static func line(label: String, done: Int, total: Int, elapsed: TimeInterval, width: Int = 24) -> String {
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : nil
        let counts =
            "\(String(repeating: " ", count: max(String(total).count - String(done).count, 0)))\(done)/\(total)"
        return "\(label) \(counts) [\(bar)] \(Int(rate.rounded()))/s" + (left.map { "  \($0)s left" } ?? "")
    }
}
