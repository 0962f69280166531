import Foundation

/// Turns Flickr's description HTML into plain text, and plain text into a short summary.
public enum PlainText {
    /// The text a person reads in `html`: tags removed (the contents of script and style too),
    /// character references decoded, whitespace collapsed to single spaces and trimmed.
    public static func fromHTML(_ html: String) -> String {
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
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
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
