// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Turns Flickr's description HTML into plain text, and plain text into a short summary.
public enum PlainText {
    /// The text a person reads in `html` (read by libxml2's HTML parser, `HTMLFragment`): tags removed
    /// (the contents of script and style too), character references decoded, control characters as
    /// spaces, whitespace collapsed to single spaces and trimmed.
    public static func fromHTML(_ html: String) -> String {
        // Without a tag or a reference the parser would give the text back whole.
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return collapsingWhitespace(HTMLFragment.visible(html))
        }
        var text = ""
        for event in HTMLFragment.events(html) {
            switch event {
            case let .text(piece):
                text += piece
            case let .start(name, _), let .end(name):
                // Block tags separate words (<br>, </p>); inline ones (<a>, <b>) sit inside a word or sentence.
                if HTMLFragment.blockTags.contains(name) { text.append(" ") }
            }
        }
        return collapsingWhitespace(text)
    }

    /// `text` with every run of whitespace (newlines included) made one space, trimmed.
    public static func collapsingWhitespace(_ text: String) -> String {
        collapsedByScalars(text) ?? text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The same a scalar at a time, without splitting the text into characters. A whitespace scalar is
    /// a character of its own (or "\r\n", whitespace too) unless a scalar joins it to another: a mark
    /// or joiner after it, a prefix (Unicode's Prepend) before it. Then nil, for the split by characters.
    private static func collapsedByScalars(_ text: String) -> String? {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        var previous: (whitespace: Bool, prefix: Bool) = (false, false)
        for scalar in text.unicodeScalars {
            let whitespace =
                scalar.isASCII
                ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
            if whitespace && previous.prefix || !whitespace && previous.whitespace && joinsPrevious(scalar) {
                return nil
            }
            if whitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
            previous = (whitespace, !scalar.isASCII && isPrefix(scalar))
        }
        return String(result)
    }

    /// Marks, joiners, emoji modifiers and tags (Grapheme_Cluster_Break Extend, ZWJ, SpacingMark), broadly.
    private static func joinsPrevious(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.isASCII else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: return true
        default:
            return scalar.value == 0x0E33 || scalar.value == 0x0EB3 || (0x1F3FB...0x1F3FF).contains(scalar.value)
                || (0xE0000...0xE0FFF).contains(scalar.value)
        }
    }

    /// Unicode's Prepend scalars, broadly (all of the Brahmic block 11000–11FFF).
    private static func isPrefix(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (0x0600...0x0605).contains(value) || value == 0x06DD || value == 0x070F
            || (0x0890...0x0891).contains(value)
            || value == 0x08E2 || value == 0x0D4E || (0x11000...0x11FFF).contains(value)
            || scalar.properties.generalCategory == .format
    }

    /// `text` cut at a word boundary with "…" when it is longer than `limit` characters.
    public static func summary(_ text: String, limit: Int = 80) -> String {
        guard text.count > limit else { return text }
        let head = text.prefix(limit)
        // The cut falls right after a whole word: keep it.
        if text[head.endIndex].isWhitespace { return String(head).trimmingTrailingPunctuation() + "…" }
        // Cut at the last space unless that would throw away most of the text (one huge word).
        if let space = head.lastIndex(of: " "), head.distance(from: head.startIndex, to: space) >= limit / 2 {
            return String(head[..<space]).trimmingTrailingPunctuation() + "…"
        }
        return String(head) + "…"
    }
}

private extension String {
    func trimmingTrailingPunctuation() -> String {
        var result = self
        while let last = result.last, last == "," || last == ";" || last == ":" || last == "-" || last.isWhitespace {
            result.removeLast()
        }
        return result
    }
}
