// SPDX-License-Identifier: Apache-2.0
/// `--format csv`: RFC 4180 — a header row, CRLF line ends, fields with commas, quotes or line
/// breaks quoted, quotes doubled; UTF-8 without a byte-order mark. A text cell a spreadsheet would
/// run as a formula (starting with `=`, `+`, `-`, `@`, tab or carriage return, OWASP's list) is
/// prefixed with `'`; numbers (a negative longitude) are written as numbers.
struct CSVFormatter: RecordFormatter {
    /// The header, in order; a record's missing fields are empty cells.
    let columns: [String]

    func prologue() -> String { row(columns.map { .text($0) }) }

    func record(_ record: OutputRecord, index: Int) -> String? {
        let values = Dictionary(record.fields.map { ($0.name, $0.value) }) { first, _ in first }
        return row(columns.map { values[$0] ?? .null })
    }

    func epilogue(written: Int) -> String { "" }

    private func row(_ values: [OutputRecord.Value]) -> String {
        values.map(Self.cell).joined(separator: ",") + "\r\n"
    }

    /// One cell, neutralised and quoted as needed.
    static func cell(_ value: OutputRecord.Value) -> String {
        var text = value.plainText
        if case .text = value, let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
            text = "'" + text
        }
        guard text.utf8.contains(where: { "\",\n\r".utf8.contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
