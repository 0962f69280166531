// SPDX-License-Identifier: Apache-2.0
import CSystem
import Glibc

/// Text as a terminal shows it: control characters made harmless, widths in columns.
enum TerminalText {
    /// `text` with control characters (escape sequences, newlines, tabs) replaced by spaces,
    /// so hostile titles cannot move the cursor or recolour the terminal.
    static func sanitized(_ text: String) -> String {
        // Printable ASCII, most of what tables hold, has nothing to replace.
        if isPrintableASCII(text) { return text }
        return String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar.properties.generalCategory == .control ? " " : scalar
                }))
    }

    /// The number of columns `text` takes: 2 for wide East Asian characters and emoji, 0 for combining marks.
    static func width(_ text: String) -> Int {
        if isPrintableASCII(text) { return text.utf8.count }
        return text.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` cut to at most `columns` columns, ending in "…" when cut.
    static func truncated(_ text: String, to columns: Int) -> String {
        guard width(text) > columns else { return text }
        guard columns > 1 else { return columns == 1 ? "…" : "" }
        var result = ""
        var used = 0
        for character in text {
            let next = width(of: character)
            if used + next > columns - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// Whether every byte is printable ASCII (one column each, nothing to replace).
    private static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    private static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        _ = characterLocale
        // An emoji sequence (ZWJ, a presentation selector) is drawn as one wide glyph.
        if character.unicodeScalars.count > 1 && first.properties.isEmoji { return 2 }
        // glibc's wcwidth knows the Unicode tables (wide East Asian, zero-width marks); a scalar it
        // calls unprintable is shown as one column (control characters were replaced already).
        let columns = wcwidth(wchar_t(bitPattern: first.value))
        return columns >= 0 ? Int(columns) : 1
    }

    /// wcwidth answers for the locale's character set: UTF-8's (glibc's built-in C.UTF-8), set once.
    private static let characterLocale: Void = { setlocale(LC_CTYPE, "C.UTF-8") }()
}
