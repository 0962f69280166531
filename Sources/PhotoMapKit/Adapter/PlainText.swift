import Foundation

/// Turns Flickr's description HTML into plain text, and plain text into a short summary.
public enum PlainText {
    /// The text a person reads in `html`: tags removed (the contents of script and style too),
    /// character references decoded, whitespace collapsed to single spaces and trimmed.
    public static func fromHTML(_ html: String) -> String {
        var text = ""
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let closing = tagEnd(in: html, from: index) {
                let name = tagName(html[html.index(after: index)..<closing])
                index = html.index(after: closing)
                // Block tags separate words (<br>, </p>); inline ones (<a>, <b>) sit inside a word or sentence.
                if blockTags.contains(name) { text.append(" ") }
                if name == "script" || name == "style", let close = html.range(of: "</\(name)", options: .caseInsensitive, range: index..<html.endIndex) {
                    index = tagEnd(in: html, from: close.lowerBound).map { html.index(after: $0) } ?? html.endIndex
                }
            } else if character == "&", let (decoded, next) = characterReference(in: html, at: index) {
                text.append(decoded)
                index = next
            } else {
                text.append(character)
                index = html.index(after: index)
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

    /// The index of the `>` closing a tag that starts at `start`, or nil when `<` is plain text ("a < b").
    /// Comments run to `-->`; a quote opens a quoted value only right after `=`.
    private static func tagEnd(in html: String, from start: String.Index) -> String.Index? {
        let next = html.index(after: start)
        guard next < html.endIndex, html[next].isLetter || html[next] == "/" || html[next] == "!" || html[next] == "?" else {
            return nil
        }
        if html[next...].hasPrefix("!--") {
            return html.range(of: "-->", range: next..<html.endIndex).map { html.index(before: $0.upperBound) }
        }
        var quote: Character?
        var previous: Character = "<"
        var index = next
        while index < html.endIndex {
            let character = html[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if (character == "\"" || character == "'") && previous == "=" {
                quote = character
            } else if character == ">" {
                return index
            }
            if !character.isWhitespace { previous = character }
            index = html.index(after: index)
        }
        return nil
    }

    private static func tagName(_ tag: Substring) -> String {
        let body = tag.drop(while: { $0 == "/" })
        return String(body.prefix(while: { $0.isLetter || $0.isNumber })).lowercased()
    }

    /// Decodes `&name;`, `&#NNN;` or `&#xHH;` at `start`; nil when it is not a reference.
    private static func characterReference(in html: String, at start: String.Index) -> (String, String.Index)? {
        guard let semicolon = html[start...].prefix(12).firstIndex(of: ";") else { return nil }
        let body = html[html.index(after: start)..<semicolon]
        let next = html.index(after: semicolon)
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value = digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, let scalar = Unicode.Scalar(value), value != 0 else { return nil }
            // A control character (&#27;, &#x9b;) must not reach a terminal or a page: it becomes a space.
            return (scalar.properties.generalCategory == .control ? " " : String(Character(scalar)), next)
        }
        guard let decoded = namedReferences[String(body)] else { return nil }
        return (decoded, next)
    }

    /// Tags that break a line or start a block.
    private static let blockTags: Set<String> = [
        "br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "table", "hr", "blockquote", "pre",
        "h1", "h2", "h3", "h4", "h5", "h6", "script", "style", "img",
    ]

    /// The named references Flickr descriptions use in practice; unknown names stay as typed.
    private static let namedReferences: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "copy": "©", "reg": "®", "trade": "™", "deg": "°", "middot": "·", "bull": "•", "laquo": "«", "raquo": "»",
        "eacute": "é", "egrave": "è", "ecirc": "ê", "agrave": "à", "aacute": "á", "acirc": "â", "auml": "ä",
        "ouml": "ö", "oacute": "ó", "uuml": "ü", "uacute": "ú", "iacute": "í", "ntilde": "ñ", "ccedil": "ç",
        "szlig": "ß", "euro": "€", "pound": "£", "yen": "¥", "times": "×",
    ]
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
