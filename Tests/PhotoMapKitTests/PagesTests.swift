import Foundation
import Testing
@testable import PhotoMapKit
import PhotoMapTestSupport

@Suite("Pages: escaping and safe descriptions")
struct HTMLTests {
    @Test("text and attribute values escape every character that could open markup")
    func textEscaping() {
        #expect(HTML.text("<img src=x onerror=alert(1)> & \"q\" 'a'") == "&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;a&#39;")
    }

    @Test("a markup character followed by a combining mark is escaped too (scripts/fuzz html)", arguments: ["\"", "'", "<", ">", "&"])
    func combiningMarks(markup: String) {
        // Compared as Characters, `"` + U+0301 is not `"`: it went out raw and closed an attribute value,
        // so that `alt="…"` could gain an event handler from a photo's title.
        let escaped = HTML.text(markup + "\u{301} onerror=alert(1) x=" + markup + "\u{30B}")
        #expect(!escaped.unicodeScalars.contains { "\"'<>".unicodeScalars.contains($0) })
        #expect(escaped.hasPrefix("&") && escaped.contains("\u{301} onerror=alert(1)"))
        #expect(HTML.safeDescription("&#0;&#0;&\u{30B}2;") == "&amp;#0;&amp;#0;&amp;\u{30B}2;")
    }

    @Test("JSON inside a script element cannot close it or open a comment")
    func scriptJSON() throws {
        let json = try HTML.scriptJSON(["title": "</script><script>alert(1)</script> <!-- & \u{2028}"])
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&") && !json.contains("\u{2028}"))
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(decoded?["title"] == "</script><script>alert(1)</script> <!-- & \u{2028}")
    }

    @Test("descriptions keep their text and http(s) links only", arguments: [
        ("Fog <b>over</b> the <a href=\"https://example.org/x?a=1&amp;b=2\">bay</a>",
         "Fog over the <a href=\"https://example.org/x?a=1&amp;b=2\" rel=\"nofollow noopener noreferrer\">bay</a>"),
        ("<a href=\"javascript:alert(1)\">click</a> me", "click me"),
        ("<a href='data:text/html,x'>d</a><a href=//evil.example>p</a>", "dp"),
        ("<script>alert(1)</script>safe<img src=x onerror=alert(1)>", "safe"),
        ("line one\nline two<br/>three", "line one<br>line two<br>three"),
        ("5 &lt; 6 &amp;&amp; <a href=\"http://a.example\">open", "5 &lt; 6 &amp;&amp; <a href=\"http://a.example\" rel=\"nofollow noopener noreferrer\">open</a>"),
        // scripts/fuzz html: control characters in a link Foundation's URL parser accepts (it percent-encodes them).
        ("<a href=\"https://oSubstrine/x?a=1&amx.examle\u{01}\u{0}\u{0}\u{08}p\">ok</a>", "ok"),
    ])
    func safeDescription(input: String, expected: String) {
        #expect(HTML.safeDescription(input) == expected)
    }

    @Test("only absolute http(s) URLs are web URLs", arguments: [
        ("https://example.org/a", true), ("HTTP://example.org", true), ("javascript:alert(1)", false),
        ("file:///etc/passwd", false), ("//evil.example/x", false), ("photos/1.html", false),
        ("https://example.org/\"><script>", false), ("https://Example.org/a\u{7F}", false), ("https://Example.org/a b", false),
        ("https://Example.org/a\u{85}b", false),
    ])
    func webURL(url: String, accepted: Bool) {
        #expect((HTML.webURL(url) != nil) == accepted)
    }

    @Test("record ids become file names that cannot leave the site", arguments: [
        ("53212345678", "53212345678"), ("kH8dLOubBZRvX_YZ", "kH8dLOubBZRvX_YZ"),
    ])
    func plainFileNames(id: String, name: String) {
        #expect(HTML.fileName(for: id) == name)
    }

    @Test("ids with path characters are hashed", arguments: ["../../etc/passwd", "a/b", "..", "", "x y", "é"])
    func hashedFileNames(id: String) {
        let name = HTML.fileName(for: id)
        #expect(name.hasPrefix("h") && name.count == 25 && name.allSatisfy { $0.isLetter || $0.isNumber })
    }
}

@Suite("Pages: the site writer and map data")
struct SiteWriterTests {
    @Test("links between pages are relative")
    func links() {
        #expect(SiteWriter.link(from: "index.html", to: "places/p.html") == "places/p.html")
        #expect(SiteWriter.link(from: "places/p.html", to: "assets/photomap.js") == "../assets/photomap.js")
        #expect(SiteWriter.link(from: "paris_files/photos/1.html", to: "paris.html") == "../../paris.html")
    }

    @Test("a file is rewritten only when its content changed")
    func rewritesOnlyChanges() throws {
        let folder = try TemporaryFolder()
        let first = SiteWriter(root: folder.url)
        try first.write("a", to: "x/a.html")
        try first.write("b", to: "b.html")
        let second = SiteWriter(root: folder.url)
        try second.write("a", to: "x/a.html")
        try second.write("changed", to: "b.html")
        #expect(first.written == 2 && second.written == 1 && second.unchanged == 1)
        #expect(try String(contentsOf: folder.url.appendingPathComponent("b.html"), encoding: .utf8) == "changed")
    }

    @Test("map data is GeoJSON: longitude first, null geometry without a coordinate")
    func geoJSON() throws {
        let located = Annotation(kind: .photo, id: "1", title: "T", subtitle: "S", coordinate: Coordinate(latitude: 48.5, longitude: 2.25))
        let unlocated = Annotation(kind: .photo, id: "2", title: "U", subtitle: "", coordinate: nil)
        let data = MapData(features: [MapData.Feature(located, thumbnail: "s.png", link: "p.html"),
                                      MapData.Feature(unlocated, thumbnail: nil, link: nil)], placeholder: "ph.svg")
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(data)) as? [String: Any]
        let features = try #require(object?["features"] as? [[String: Any]])
        #expect(object?["type"] as? String == "FeatureCollection")
        #expect((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [2.25, 48.5])
        #expect(features[1]["geometry"] is NSNull)
        #expect((features[0]["properties"] as? [String: Any])?["thumbnail"] as? String == "s.png")
    }
}
