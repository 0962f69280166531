// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import Testing

@testable import PhotoMapKit

/// Hostile descriptions in the manner of html5sec.org's vectors, through libxml2's HTML parser and the
/// allow-list walk of `HTML.safeDescription`: whatever the parser makes of them, only text, `<br>` and
/// links to http(s) URLs come out.
@Suite("Descriptions: html5sec-style vectors through libxml2's HTML parser")
struct HTMLFragmentTests {
    /// The first markup in `html` the sanitiser may not write, or nil: read byte by byte, as a browser's
    /// tokenizer reads, apart from the sanitiser's own code.
    static func disallowed(in html: String) -> String? {
        let bytes = Array(html.utf8)
        let allowed = [
            "&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "<br>", "</a>", "\" rel=\"nofollow noopener noreferrer\">",
        ].map { Array($0.utf8) }
        let linkOpen = Array("<a href=\"".utf8)
        var index = 0
        var inLink = false
        while index < bytes.count {
            guard "<>&\"'".utf8.contains(bytes[index]) else {
                index += 1
                continue
            }
            let rest = bytes[index...]
            if rest.starts(with: linkOpen) {
                if inLink { return "a link inside a link" }
                index += linkOpen.count
                let url = bytes[index...].prefix { $0 != UInt8(ascii: "\"") }
                let decoded = String(decoding: url, as: UTF8.self).replacingOccurrences(of: "&amp;", with: "&")
                let scheme = decoded.lowercased()
                guard scheme.hasPrefix("http://") || scheme.hasPrefix("https://") else { return "a link to \(decoded)" }
                inLink = true
                index += url.count
            } else if let token = allowed.first(where: { rest.starts(with: $0) }) {
                if token == Array("</a>".utf8) {
                    if !inLink { return "</a> closing nothing" }
                    inLink = false
                }
                index += token.count
            } else {
                return "markup at \(String(decoding: rest.prefix(30), as: UTF8.self).debugDescription)"
            }
        }
        return inLink ? "a link left open" : nil
    }

    @Test(
        "unclosed tags, comments inside attributes, svg and math, entity tricks, split and NUL-broken schemes",
        arguments: [
            // Unclosed tags.
            "<a href=\"javascript:alert(1)\"", "<a href=\"http://ok.example\" <b>bold<i>italic",
            "<img src=x onerror=alert(1)//",
            "<script>alert(1)", "<a href=http://ok.example>never closed <div><a href=javascript:alert(2)>x",
            "<iframe src=javascript:alert(1)", "<<script>alert(1)//<</script>", "<scr<script>ipt>alert(1)</script>",
            // Comments inside attributes, attributes inside comments.
            "<a title=\"<!--\" href=\"javascript:alert(1)\">x</a><!-- -->", "<a href=\"http://ok.example/<!--\">x</a>",
            "<!--<a href=\"javascript:alert(1)\">--><a href=http://ok.example>ok</a>",
            "<a title=\"-->\" href=javascript:alert(1)>x</a>", "<!-- unclosed <a href=http://ok.example>",
            "<a href=http://ok.example/ title='--><script>alert(1)</script>'>x</a>",
            // SVG and MathML content (mutation XSS vectors).
            "<svg><script>alert(1)</script><a xlink:href=\"javascript:alert(1)\"><text>t</text></a></svg>",
            "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
            "<svg><style><img src=x onerror=alert(1)></style></svg>", "<math href=\"javascript:alert(1)\">x</math>",
            "<svg><a href=\"http://ok.example\"><animate attributeName=href to=javascript:alert(1) />x</a></svg>",
            "<math><maction actiontype=statusline xlink:href=javascript:alert(1)>x</maction></math>",
            "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
            // Entity tricks.
            "<a href=\"&#x6a;avascript:alert(1)\">x</a>",
            "<a href=\"&#106&#97&#118&#97&#115&#99&#114&#105&#112&#116&#58alert(1)\">x</a>",
            "<a href=\"jav&Tab;ascript:alert(1)\">x</a>", "<a href=\"&#0000106avascript:alert(1)\">x</a>",
            "<a href=\"javascript&colon;alert(1)\">x</a>", "&ltscript&gtalert(1)&lt/script&gt",
            "&lt;script&gt;alert(1)&lt;/script&gt;",
            "<a href=\"http://ok.example/?a=1&copy=2&amp\">x</a>", "<a href=\"&#x68;ttp://ok.example\">x</a>",
            // javascript: split by whitespace, newlines and control characters.
            "<a href=\"java\nscript:alert(1)\">x</a>", "<a href=\" javascript:alert(1)\">x</a>",
            "<a href=\"jav&#x09;ascript:alert(1)\">x</a>", "<a href=\"jav&#x0A;ascript:alert(1)\">x</a>",
            "<a href=\"\u{1}javascript:alert(1)\">x</a>", "<a href=\"javascript\n:alert(1)\">x</a>",
            "<a href=\"https://ok.example/\nx\">x</a>", "<a href=\"https://ok.example/&#x0d;x\">x</a>",
            // Nested and mismatched quotes.
            "<a href=\"http://ok.example/\"onmouseover=\"alert(1)\">x</a>",
            "<a href='http://ok.example/\"><script>alert(1)</script>'>x</a>",
            "<a href=\"http://ok.example/'onclick='alert(1)'\">x</a>", "<a href=`javascript:alert(1)`>x</a>",
            "<a title=\"a'b\" href='c\"d'>x</a>", "<img \"\"\"><script>alert(1)</script>\">",
            // NUL bytes.
            "<scr\u{0}ipt>alert(1)</scr\u{0}ipt>", "<a href=\"java\u{0}script:alert(1)\">x</a>",
            "<a\u{0}href=\"javascript:alert(1)\">x</a>", "\u{0}<a href=\"http://ok.example\">ok</a>\u{0}",
            // Encodings a <meta> would switch to, and a document's own structure inside a description.
            "<meta charset=\"utf-7\">+ADw-script+AD4-alert(1)+ADw-/script+AD4-",
            "<meta http-equiv=\"content-type\" content=\"text/html; charset=utf-16\">é",
            "</photomap-fragment><a href=javascript:alert(1)>x</a></body></html><p>after",
        ])
    func hostile(input: String) {
        let output = HTML.safeDescription(input)
        #expect(Self.disallowed(in: output) == nil, "\(input.debugDescription) → \(output.debugDescription)")
        let text = PlainText.fromHTML(input)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 } && !text.hasPrefix(" ") && !text.contains("  "))
    }

    @Test(
        "what the parser reads is kept: text, http(s) links and line breaks",
        arguments: [
            (
                "<a href=\"&#x68;ttp://ok.example\">x</a>",
                "<a href=\"http://ok.example\" rel=\"nofollow noopener noreferrer\">x</a>"
            ),
            ("<a href=\"jav&Tab;ascript:alert(1)\">x</a>", "x"),
            ("<a href=\"&#x6a;avascript:alert(1)\">x</a>", "x"),
            ("<a href=\"java\nscript:alert(1)\">x</a> y", "x y"),
            ("<a href=\"https://ok.example/\nx\">x</a>", "x"),
            ("&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;script&gt;alert(1)&lt;/script&gt;"),
            ("<scr\u{0}ipt>alert(1)</scr\u{0}ipt>", "alert(1)"),
            ("<svg><script>alert(1)</script><text>t</text></svg>", "t"),
            ("<meta http-equiv=\"content-type\" content=\"text/html; charset=utf-16\">é", "é"),
            (
                "<a href=http://ok.example>never closed <div>x",
                "<a href=\"http://ok.example\" rel=\"nofollow noopener noreferrer\">never closed <br>x</a>"
            ),
            ("<p>one</p><p>two</p>three<li>four", "one<br>two<br>three<br>four"),
            ("a<br><br>b<div></div>", "a<br><br>b"),
            ("</photomap-fragment>a <b>b</b> c", "a b c"),
        ])
    func kept(input: String, expected: String) {
        #expect(HTML.safeDescription(input) == expected)
    }

    @Test("a description of a megabyte is read whole")
    func megabyte() {
        let line = "Fog <b>over</b> the <a href=\"https://example.org/x?a=1&amp;b=2\">bay</a> &amp; caf&eacute;\n"
        let input = String(repeating: line, count: 1_000_000 / line.utf8.count + 1)
        #expect(input.utf8.count > 1_000_000 && input.utf8.count < HTMLFragment.maximumBytes)
        let output = HTML.safeDescription(input)
        let link = "<a href=\"https://example.org/x?a=1&amp;b=2\" rel=\"nofollow noopener noreferrer\">bay</a>"
        #expect(output.components(separatedBy: link).count - 1 == input.components(separatedBy: "<a ").count - 1)
        #expect(output.hasSuffix("Fog over the \(link) &amp; café<br>"))
        #expect(Self.disallowed(in: output) == nil)
        #expect(PlainText.fromHTML(input).hasSuffix("over the bay & café"))
    }

    @Test("past the bound, the rest is left out, cut between characters")
    func overBound() {
        let input = "a" + String(repeating: "é", count: HTMLFragment.maximumBytes / 2) + "<b>tail</b>"
        let text = PlainText.fromHTML(input)
        #expect(text.utf8.count == HTMLFragment.maximumBytes - 1 && text.hasPrefix("aé") && text.hasSuffix("é"))
    }

    @Test(
        "ten thousand levels of nesting: read whole or to the depth bound, without a stack of its depth",
        arguments: ["<div>", "<b>", "<a href=http://ok.example>", "<svg>", "<table><tr><td>", "<ul><li>"])
    func deepNesting(open: String) {
        let input =
            "start " + String(repeating: open + "x ", count: 10_000) + String(repeating: "</html>", count: 20_000)
        let output = HTML.safeDescription(input)
        let text = PlainText.fromHTML(input)
        #expect(Self.disallowed(in: output) == nil)
        #expect(text.hasPrefix("start x x"))
        // Whole where the parser closes what is open (a new <a> closes the last), else up to the bound.
        let words = text.split(separator: " ").count
        #expect(words == 10_001 || words <= HTMLFragment.maximumDepth + 1)
    }
}
