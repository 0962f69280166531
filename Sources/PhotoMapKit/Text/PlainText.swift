import Foundation

/// Turns Flickr's description HTML into plain text, and plain text into a short summary.
public enum PlainText {
    /// The text a person reads in `html`: tags removed (the contents of script and style too),
    /// character references decoded, whitespace collapsed to single spaces and trimmed.
    public static func fromHTML(_ html: String) -> String {
        // Without a tag or a reference the tokenizer would give the text back whole.
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
            return collapsingWhitespace(html)
        }
        var text = ""
        for token in HTMLTokenizer.tokens(html) {
            switch token {
            case let .text(piece):
                text += piece
            case let .tag(name, _, _):
                // Block tags separate words (<br>, </p>); inline ones (<a>, <b>) sit inside a word or sentence.
                if HTMLTokenizer.blockTags.contains(name) { text.append(" ") }
            }
        }
        return collapsingWhitespace(text)
    }

    /// `text` with every run of whitespace (newlines included) made one space, trimmed.
    public static func collapsingWhitespace(_ text: String) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ") }
        // ASCII: whitespace is tab to carriage return and space, compared as bytes ("\r\n" is one
        // Character, and whitespace, either way).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                pendingSpace = !bytes.isEmpty
            } else {
                if pendingSpace { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
