// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// Description HTML: libxml2's HTML parser (HTMLFragment) through the plain-text reduction and the safe-description
/// sanitiser. Property: the sanitised HTML holds no element or attribute but `<br>` and
/// `<a href="http(s)://…" rel="nofollow noopener noreferrer">…</a>`, every `&` starts one of the
/// five escapes it writes; the plain text is collapsed; a summary is at most its limit and "…".
enum HTMLTarget {
    static let target = FuzzTarget(
        name: "html",
        summary:
            "libxml2's HTML parser, PlainText and HTML.safeDescription (only allowed elements and http(s) links out)",
        options: ["-max_len=16384"]
    ) { bytes in
        let html = String(decoding: bytes, as: UTF8.self)
        let text = PlainText.fromHTML(html)
        // Collapsed: single spaces between words, none at either end, no other whitespace. (A space
        // joining words may take a combining mark that follows it: it stays one space.)
        require(
            !text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.contains("  ")
                && !text.unicodeScalars.contains { $0 != " " && $0.properties.isWhitespace && $0.isASCII },
            "plain text not collapsed: \(text.debugDescription)")
        let summary = PlainText.summary(text, limit: 80)
        require(summary.count <= 81, "a summary of \(summary.count) characters")
        if let problem = SafeHTMLCheck.problem(in: HTML.safeDescription(html)) {
            propertyFailed("safeDescription(\(html.debugDescription)): \(problem)")
        }
        return true
    }
}

/// Reads sanitised HTML independently of the sanitiser, byte by byte as a browser's tokenizer reads
/// code points (a Character-wise reading would glue a combining mark to a tag's `>`): what it finds
/// that is not allowed.
enum SafeHTMLCheck {
    static let escapes = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].map { Array($0.utf8) }
    static let lineBreak = Array("<br>".utf8), linkClose = Array("</a>".utf8), linkOpen = Array("<a href=\"".utf8)
    static let linkEnd = Array("\" rel=\"nofollow noopener noreferrer\">".utf8)
    static let markup = Set("<>&\"'".utf8)

    /// A description of the first thing not allowed in `html`, or nil.
    static func problem(in html: String) -> String? {
        let bytes = Array(html.utf8)
        var index = 0
        var linkOpened = false
        func at(_ token: [UInt8]) -> Bool { bytes[index...].starts(with: token) }
        func context() -> String { String(decoding: bytes[index...].prefix(40), as: UTF8.self).debugDescription }
        while index < bytes.count {
            guard markup.contains(bytes[index]) else {
                index += 1
                continue
            }
            if let escape = escapes.first(where: at) {
                index += escape.count
            } else if at(lineBreak) {
                index += lineBreak.count
            } else if at(linkClose) {
                guard linkOpened else { return "</a> closes no link at \(context())" }
                linkOpened = false
                index += linkClose.count
            } else if at(linkOpen) {
                guard !linkOpened else { return "a link inside a link at \(context())" }
                let start = index + linkOpen.count
                guard let end = (start..<bytes.count).first(where: { bytes[$0...].starts(with: linkEnd) }) else {
                    return "a link without its rel at \(context())"
                }
                let url = decoded(String(decoding: bytes[start..<end], as: UTF8.self))
                // Schemes are case-insensitive (RFC 3986 §3.1): HTTPS://… is https.
                guard url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://") else {
                    return "a link to \(url.debugDescription)"
                }
                guard
                    !url.unicodeScalars.contains(where: {
                        $0.properties.isWhitespace || $0.properties.generalCategory == .control || $0 == "\""
                            || $0 == "<" || $0 == ">"
                    })
                else {
                    return "a link with a space, quote, angle bracket or control character: \(url.debugDescription)"
                }
                linkOpened = true
                index = end + linkEnd.count
            } else {
                return "markup not allowed at \(context())"
            }
        }
        return linkOpened ? "a link left open" : nil
    }

    /// An attribute value with the sanitiser's five escapes decoded (the only references it writes).
    private static func decoded(_ value: String) -> String {
        var text = value
        for (escape, character) in zip(["&lt;", "&gt;", "&quot;", "&#39;"], ["<", ">", "\"", "'"]) {
            text = text.replacingOccurrences(of: escape, with: character)
        }
        return text.replacingOccurrences(of: "&amp;", with: "&")
    }
}
