// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import PhotoMapCLI

@Suite("Tables for the terminal")
struct TableTests {
    @Test("columns are aligned and the flexible ones shrink to fit the width")
    func fitsWidth() {
        var table = Table(columns: [
            .init(heading: "ID"), .init(heading: "TITLE", flexible: true),
            .init(heading: "N", alignRight: true),
        ])
        table.rows = [["1", String(repeating: "long title ", count: 10), "7"], ["22", "short", "123"]]
        let wide = table.render(width: nil)
        #expect(wide[1].count > 100)
        let narrow = table.render(width: 40)
        #expect(narrow.allSatisfy { TerminalText.width($0) <= 40 })
        #expect(narrow[1].contains("…"))
        #expect(narrow[2].hasSuffix("123"))
        #expect(narrow.map { TerminalText.width($0) }.allSatisfy { $0 == TerminalText.width(narrow[1]) })
    }

    @Test("wide characters count two columns; combining marks none")
    func widths() {
        #expect(TerminalText.width("東京タワー") == 10)
        #expect(TerminalText.width("e\u{301}") == 1)
        #expect(TerminalText.width("🙂 ok") == 5)
        #expect(TerminalText.truncated("東京タワー", to: 5) == "東京…")
    }

    @Test("control characters in hostile text cannot reach the terminal")
    func sanitized() {
        let hostile = "Title\u{1B}[2J\u{1B}]0;owned\u{07}\nnext"
        let safe = TerminalText.sanitized(hostile)
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(safe.hasPrefix("Title [2J ]0;owned"))
    }
}
