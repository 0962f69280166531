// SPDX-License-Identifier: Apache-2.0
import PhotoMapSupport
import Testing

@testable import PhotoMapKit

@Suite("Plain text from description HTML")
struct PlainTextTests {
    @Test("tags are removed and words on either side stay apart")
    func tagsRemoved() {
        #expect(PlainText.fromHTML("<b>Bold</b> move<br />next line<p>para</p>end") == "Bold move next line para end")
    }

    @Test("inline tags sit inside words and sentences; block tags separate them")
    func inlineTags() {
        #expect(PlainText.fromHTML("See <a href=\"x\">my blog</a>. H<b>ell</b>o") == "See my blog. Hello")
        #expect(PlainText.fromHTML("one<br>two<li>three</li><div>four</div>") == "one two three four")
    }

    @Test("comments run to -->, and an apostrophe in an unquoted attribute does not swallow the text")
    func commentsAndStrayQuotes() {
        #expect(PlainText.fromHTML("<!-- a > b --> text") == "text")
        #expect(PlainText.fromHTML("<a title=it's>link</a> after") == "link after")
    }

    @Test("references to control characters become spaces", arguments: ["&#x9b;", "&#128;", "&#x7f;"])
    func controlReferences(reference: String) {
        #expect(PlainText.fromHTML("a\(reference)b") == "a b")
    }

    @Test("references to characters XML forbids are dropped by the parser", arguments: ["&#27;", "&#0;", "&#x1b;"])
    func forbiddenReferences(reference: String) {
        #expect(PlainText.fromHTML("a\(reference)b") == "ab")
    }

    @Test("raw control characters become spaces, with a tag or without (a NUL does not end the text)")
    func rawControls() {
        #expect(PlainText.fromHTML("a\u{1B}b\u{0}c\u{85}d") == "a b c d")
        #expect(PlainText.fromHTML("<i>a\u{1B}b\u{0}c\u{85}d</i>") == "a b c d")
    }

    @Test("named, decimal and hexadecimal references are decoded")
    func referencesDecoded() {
        #expect(
            PlainText.fromHTML("Tom &amp; Jerry &#8212; &#x263A; &quot;hi&quot; caf&eacute;")
                == "Tom & Jerry — ☺ \"hi\" café")
    }

    @Test("decoded markup stays text: &lt;script&gt; is not a tag")
    func decodedMarkupIsText() {
        #expect(PlainText.fromHTML("&lt;script&gt;x&lt;/script&gt;") == "<script>x</script>")
    }

    @Test("whitespace and newlines collapse to single spaces")
    func whitespaceCollapsed() {
        #expect(PlainText.fromHTML("  a\n\n  b\t c  ") == "a b c")
    }

    @Test("script and style contents are dropped, not shown as text")
    func scriptDropped() {
        #expect(PlainText.fromHTML("before<script>alert(1)</script>after<style>p{}</style>!") == "before after !")
    }

    @Test("a lone < and unknown references are plain text")
    func plainAngleBracket() {
        #expect(PlainText.fromHTML("a < b && c &bogus; d") == "a < b && c &bogus; d")
    }

    @Test("attributes with > inside quotes do not end the tag")
    func quotedAttributes() {
        #expect(PlainText.fromHTML("<a title=\"x > y\" href='z'>link</a>") == "link")
    }

    @Test("summary leaves short text alone and cuts long text at a word")
    func summary() {
        #expect(PlainText.summary("short") == "short")
        #expect(PlainText.summary("aaaa bbbb cccc", limit: 10) == "aaaa bbbb…")
        #expect(PlainText.summary("aaaa bbbb cccc", limit: 9) == "aaaa bbbb…", "a word ending at the limit is kept")
        #expect(PlainText.summary(String(repeating: "x", count: 20), limit: 10) == "xxxxxxxxxx…")
    }

    @Test(
        "text taken as it is, or in runs of bytes, reads as splitting it into characters did",
        arguments: [
            "plain words", " lead", "trail ", "a  b", "a\tb", "a\r\nb", "café crème", "a\u{A0}b",
            "a \u{301}b", "\u{600} x", "é", "", " ", "é è", "a\u{3000}\u{301}b", "a \u{200D}b",
            "👍🏽 ok", "a \u{1F3FD}", "x\u{2028}y",
        ])
    func sameAsCharacters(text: String) {
        let reference = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        #expect(PlainText.collapsingWhitespace(text) == reference)
        #expect(PlainText.fromHTML(text) == reference)
        #expect(PlainText.fromHTML("<i>" + text + "</i>") == reference)
    }

    @Test("a < or & that a combining mark joins to is text, and text around tags keeps its marks")
    func combiningMarks() {
        #expect(PlainText.fromHTML("a <\u{338} b") == "a <\u{338} b")
        #expect(PlainText.fromHTML("&\u{301}amp; x") == "&\u{301}amp; x")
        #expect(PlainText.fromHTML("e\u{301}<i>x</i>e\u{301}") == "e\u{301}xe\u{301}")
    }
}
