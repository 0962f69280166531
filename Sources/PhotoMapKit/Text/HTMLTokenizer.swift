import Foundation

/// One piece of an HTML fragment: text (references decoded) or a tag (name lowercased).
enum HTMLToken: Equatable {
    case text(String)
    case tag(name: String, closing: Bool, attributes: [String: String])
}

/// Splits the HTML Flickr allows in descriptions into text and tags, forgivingly: a `<` that does not
/// start a tag is text ("a < b"), comments run to `-->`, the contents of script and style are dropped,
/// unknown references stay as typed, and references to control characters become spaces.
enum HTMLTokenizer {
    /// Tags that break a line or start a block.
    static let blockTags: Set<String> = [
        "br", "p", "div", "li", "ul", "ol", "tr", "td", "th", "table", "hr", "blockquote", "pre",
        "h1", "h2", "h3", "h4", "h5", "h6", "script", "style", "img",
    ]

    static func tokens(_ html: String) -> [HTMLToken] {
        var tokens: [HTMLToken] = []
        var text = ""
        var index = html.startIndex
        func flushText() {
            if !text.isEmpty { tokens.append(.text(text)) }
            text = ""
        }
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let closing = tagEnd(in: html, from: index) {
                flushText()
                let body = html[html.index(after: index)..<closing]
                index = html.index(after: closing)
                guard let tag = parseTag(body) else { continue }  // comments, doctypes
                tokens.append(tag)
                if case let .tag(name, false, _) = tag, name == "script" || name == "style" {
                    let close = html.range(of: "</\(name)", options: .caseInsensitive, range: index..<html.endIndex)
                    index =
                        close.flatMap { tagEnd(in: html, from: $0.lowerBound) }.map { html.index(after: $0) }
                        ?? html.endIndex
                }
            } else if character == "&", let (decoded, next) = characterReference(in: html, at: index) {
                text.append(decoded)
                index = next
            } else {
                // Text runs to the next "<" or "&", found as bytes and appended in one piece (when that
                // byte starts a character: a combining mark after it makes it part of another).
                let after = html.index(after: index)
                let stop =
                    html.utf8[after...].firstIndex { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }
                    ?? html.endIndex
                let end = String.Index(stop, within: html) ?? after
                text += html[index..<end]
                index = end
            }
        }
        flushText()
        return tokens
    }

    /// The index of the `>` closing a tag that starts at `start`, or nil when `<` is plain text.
    /// A quote opens a quoted value only right after `=`.
    private static func tagEnd(in html: String, from start: String.Index) -> String.Index? {
        let next = html.index(after: start)
        guard next < html.endIndex,
            html[next].isLetter || html[next] == "/" || html[next] == "!" || html[next] == "?"
        else {
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
            // ASCII answered without Unicode's tables: most of a tag is.
            if !(character.asciiValue.map { $0 == 0x20 || (0x09...0x0D).contains($0) } ?? character.isWhitespace) {
                previous = character
            }
            index = html.index(after: index)
        }
        return nil
    }

    /// A tag's name and attributes; nil for comments, doctypes and processing instructions.
    private static func parseTag(_ body: Substring) -> HTMLToken? {
        guard let first = body.first, first != "!" && first != "?" else { return nil }
        let closing = first == "/"
        var rest = body.drop(while: { $0 == "/" })
        let name = String(rest.prefix(while: { $0.isLetter || $0.isNumber })).lowercased()
        guard !name.isEmpty else { return nil }
        rest = rest.dropFirst(name.count)
        var attributes: [String: String] = [:]
        while true {
            rest = rest.drop(while: { $0.isWhitespace || $0 == "/" })
            let attributeName = String(rest.prefix(while: { !$0.isWhitespace && $0 != "=" && $0 != "/" })).lowercased()
            guard !attributeName.isEmpty else { break }
            rest = rest.dropFirst(attributeName.count).drop(while: \.isWhitespace)
            var value = ""
            if rest.first == "=" {
                rest = rest.dropFirst().drop(while: \.isWhitespace)
                if let quote = rest.first, quote == "\"" || quote == "'" {
                    let inner = rest.dropFirst()
                    let raw = inner.prefix(while: { $0 != quote })
                    value = decodingReferences(raw)
                    rest = inner.dropFirst(raw.count + 1)
                } else {
                    let raw = rest.prefix(while: { !$0.isWhitespace })
                    value = decodingReferences(raw)
                    rest = rest.dropFirst(raw.count)
                }
            }
            if attributes[attributeName] == nil { attributes[attributeName] = value }
        }
        return .tag(name: name, closing: closing, attributes: attributes)
    }

    /// Text with its character references decoded.
    static func decodingReferences(_ raw: Substring) -> String {
        let text = String(raw)
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "&", let (decoded, next) = characterReference(in: text, at: index) {
                result += decoded
                index = next
            } else {
                result.append(text[index])
                index = text.index(after: index)
            }
        }
        return result
    }

    /// Decodes `&name;`, `&#NNN;` or `&#xHH;` at `start`; nil when it is not a reference.
    private static func characterReference(in html: String, at start: String.Index) -> (String, String.Index)? {
        guard let semicolon = html[start...].prefix(12).firstIndex(of: ";") else { return nil }
        let body = html[html.index(after: start)..<semicolon]
        let next = html.index(after: semicolon)
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, let scalar = Unicode.Scalar(value), value != 0 else { return nil }
            // A control character (&#27;, &#x9b;) must not reach a terminal or a page: it becomes a space.
            return (scalar.properties.generalCategory == .control ? " " : String(Character(scalar)), next)
        }
        guard let decoded = namedReferences[String(body)] else { return nil }
        return (decoded, next)
    }

    /// The named references Flickr descriptions use in practice; unknown names stay as typed.
    private static let namedReferences: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "copy": "©", "reg": "®", "trade": "™", "deg": "°", "middot": "·", "bull": "•", "laquo": "«",
        "raquo": "»",
        "eacute": "é", "egrave": "è", "ecirc": "ê", "agrave": "à", "aacute": "á", "acirc": "â", "auml": "ä",
        "ouml": "ö", "oacute": "ó", "uuml": "ü", "uacute": "ú", "iacute": "í", "ntilde": "ñ", "ccedil": "ç",
        "szlig": "ß", "euro": "€", "pound": "£", "yen": "¥", "times": "×",
    ]
}
