// SPDX-License-Identifier: Apache-2.0
/// An aligned text table that fits a terminal by shortening its flexible columns.
struct Table {
    /// One column: its heading, whether it may be shortened, and its alignment.
    struct Column {
        let heading: String
        var flexible = false
        var alignRight = false
    }

    let columns: [Column]
    var rows: [[String]] = []

    /// The table's lines, each at most `width` columns when a width is given.
    func render(width: Int?) -> [String] {
        let cells = ([columns.map(\.heading)] + rows).map { $0.map(TerminalText.sanitized) }
        var widths = columns.indices.map { index in cells.map { TerminalText.width($0[index]) }.max() ?? 0 }
        if let width { fit(&widths, into: width) }
        return cells.map { row in
            row.indices.map { index in
                let text = TerminalText.truncated(row[index], to: widths[index])
                let padding = String(repeating: " ", count: max(widths[index] - TerminalText.width(text), 0))
                // The last column is not padded on the right, so lines carry no trailing spaces.
                if columns[index].alignRight { return padding + text }
                return index == row.count - 1 ? text : text + padding
            }.joined(separator: "  ")
        }
    }

    /// Shrinks the widest flexible column, one column at a time, until the row fits (or nothing can shrink).
    private func fit(_ widths: inout [Int], into available: Int) {
        let minimum = 8
        let separators = 2 * (widths.count - 1)
        while widths.reduce(separators, +) > available {
            let candidates = widths.indices.filter { columns[$0].flexible && widths[$0] > minimum }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { return }
            widths[widest] -= 1
        }
    }
}
