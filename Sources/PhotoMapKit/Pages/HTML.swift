// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapNetworking
import PhotoMapSupport

/// Escaping for each place text goes in a page: HTML text, attribute values, JSON inside `<script>`,
/// and URLs. Every title, subtitle, name and description goes through one of these.
public enum HTML {
    /// Text for an element's content or a quoted attribute value: `& < > " '` escaped. Scalar by
    /// scalar, as a browser reads: a quote followed by a combining mark is one Character, and compared
    /// as Characters it went out unescaped and closed the attribute (found by scripts/fuzz html).
    public static func text(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// JSON for a `<script type="application/json">` block: `<`, `>`, `&` and the JavaScript line
    /// separators escaped, so no string in it can close the script element (`</script>`) or open a comment.
    public static func scriptJSON<Value: Encodable>(_ value: Value) throws -> String {
        let json = try JSONOutput.data(value)
        // Escaped as UTF-8 bytes (U+2028 and U+2029 are E2 80 A8 and E2 80 A9): appending scalar by scalar
        // to a String was a tenth of a cold export's time.
        var escaped: [UInt8] = []
        escaped.reserveCapacity(json.count + 64)
        json.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var index = 0
            while index < bytes.count {
                if let (escape, length) = JSONText.scriptEscape(bytes, at: index) {
                    escape.withUTF8Buffer { escaped.append(contentsOf: $0) }
                    index += length
                } else {
                    escaped.append(bytes[index])
                    index += 1
                }
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// An absolute http(s) URL fit for an `href` or `src`, or nil for anything else
    /// (`javascript:`, `data:`, `file:`, relative or malformed: a space, quote, angle bracket or
    /// control character, which Foundation's URL parser would percent-encode rather than refuse).
    public static func webURL(_ url: String) -> String? {
        // Printable ASCII but the quote and angle brackets, as nearly every URL is: nothing to trim or refuse,
        // decided on the bytes (looking up each scalar's properties was a tenth of making a photo page).
        if url.utf8.allSatisfy({
            (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "<")
                && $0 != UInt8(ascii: ">")
        }) {
            return HTTPClient.scheme(of: url) != nil ? url : nil
        }
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        guard HTTPClient.scheme(of: trimmed) != nil,
            !trimmed.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.properties.generalCategory == .control || $0 == "\"" || $0 == "<"
                    || $0 == ">"
            })
        else { return nil }
        return trimmed
    }

    /// A description reduced to safe HTML: read by libxml2's HTML parser (`HTMLFragment`), its text
    /// escaped, line breaks kept (`<br>`, a newline, and between a block — p, div, li — and what
    /// follows), and only links to http(s) URLs kept as links (`rel="nofollow noopener noreferrer"`);
    /// every other tag dropped.
    public static func safeDescription(_ description: String) -> String {
        var output = ""
        var openLink = false
        var breakPending = false
        // Text and links after a block's edge start a line, unless one just started.
        func write(_ piece: String) {
            if breakPending && !output.isEmpty && !output.hasSuffix("<br>") { output += "<br>" }
            breakPending = false
            output += piece
        }
        func closeLink() {
            if openLink { output += "</a>" }
            openLink = false
        }
        for event in HTMLFragment.events(description) {
            switch event {
            case let .text(text):
                write(
                    text.split(separator: "\n", omittingEmptySubsequences: false).map { HTML.text(String($0)) }
                        .joined(separator: "<br>"))
            case let .start("a", attributes):
                closeLink()
                if let href = attributes["href"].flatMap(webURL) {
                    write("<a href=\"\(text(href))\" rel=\"nofollow noopener noreferrer\">")
                    openLink = true
                }
            case .end("a"):
                closeLink()
            case .start("br", _):
                breakPending = false
                output += "<br>"
            case let .start(name, _) where blockTags.contains(name), let .end(name) where blockTags.contains(name):
                breakPending = true
            case .start, .end:
                break
            }
        }
        closeLink()
        return output
    }

    /// The elements whose edges break a description's lines.
    private static let blockTags: Set<String> = ["p", "div", "li"]

    /// A file name for a record id: the id itself when it is plain (letters, digits, `_`, `-`, `@`),
    /// else a hash of it, so no server-supplied id can name a path outside the site.
    public static func fileName(for id: String) -> String {
        // Decided on the bytes (ASCII letters, digits, "_", "-", "@"): an export asks for every photo's page.
        let plain =
            !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "@"):
                    true
                default: false
                }
            }
        return plain ? id : "h" + SHA256.hex(id).prefix(24)
    }
}
