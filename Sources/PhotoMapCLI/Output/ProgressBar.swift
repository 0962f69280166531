// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

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

    /// Redraws (at most ten times a second, and always for the last step); `rows`, when given, is what the
    /// rate counts ("11234 rows/s") where done and total are bytes.
    func update(done: Int, total: Int, rows: Int? = nil) {
        guard console.showsProgress, total > 0 else { return }
        state.withLock { state in
            let now = Date()
            guard done == total || now.timeIntervalSince(state.lastDrawn) >= 0.1 else { return }
            state = (now, true)
            console.err(
                "\r\u{1B}[K"
                    + Self.line(
                        label: label, done: done, total: total, elapsed: now.timeIntervalSince(started), rows: rows))
        }
    }

    /// Clears the line so what follows starts clean.
    func finish() {
        state.withLock { state in
            if state.drawn { console.err("\r\u{1B}[K") }
            state.drawn = false
        }
    }

    /// "prefetching  812/2000 [########------------]  412/s  3s left"; with `rows`, the rate is theirs:
    /// "reading records  1048576/4194304 [######------------------] 11234 rows/s  9s left".
    static func line(
        label: String, done: Int, total: Int, elapsed: TimeInterval, width: Int = 24, rows: Int? = nil
    ) -> String {
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : nil
        let counts =
            "\(String(repeating: " ", count: max(String(total).count - String(done).count, 0)))\(done)/\(total)"
        let shown = rows.map { elapsed > 0 ? "\(Int((Double($0) / elapsed).rounded())) rows/s" : "0 rows/s" }
        return "\(label) \(counts) [\(bar)] \(shown ?? "\(Int(rate.rounded()))/s")"
            + (left.map { "  \($0)s left" } ?? "")
    }
}
