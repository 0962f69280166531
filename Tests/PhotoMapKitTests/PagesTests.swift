// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Pages: escaping and safe descriptions")
struct HTMLTests {
    @Test("text and attribute values escape every character that could open markup")
    func textEscaping() {
        #expect(
            HTML.text("<img src=x onerror=alert(1)> & \"q\" 'a'")
                == "&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;a&#39;")
    }

    @Test(
        "a markup character followed by a combining mark is escaped too (scripts/fuzz html)",
        arguments: ["\"", "'", "<", ">", "&"])
    func combiningMarks(markup: String) {
        // Compared as Characters, `"` + U+0301 is not `"`: it went out raw and closed an attribute value,
        // so that `alt="…"` could gain an event handler from a photo's title.
        let escaped = HTML.text(markup + "\u{301} onerror=alert(1) x=" + markup + "\u{30B}")
        #expect(!escaped.unicodeScalars.contains { "\"'<>".unicodeScalars.contains($0) })
        #expect(escaped.hasPrefix("&") && escaped.contains("\u{301} onerror=alert(1)"))
        // libxml2 drops references to characters XML forbids (&#0;); the & a mark joins is text, escaped.
        #expect(HTML.safeDescription("&#0;&#0;&\u{30B}2;") == "&amp;\u{30B}2;")
    }

    @Test("JSON inside a script element cannot close it or open a comment")
    func scriptJSON() throws {
        let json = try HTML.scriptJSON(["title": "</script><script>alert(1)</script> <!-- & \u{2028}"])
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&") && !json.contains("\u{2028}"))
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(decoded?["title"] == "</script><script>alert(1)</script> <!-- & \u{2028}")
    }

    @Test(
        "descriptions keep their text and http(s) links only",
        arguments: [
            (
                "Fog <b>over</b> the <a href=\"https://example.org/x?a=1&amp;b=2\">bay</a>",
                "Fog over the <a href=\"https://example.org/x?a=1&amp;b=2\" rel=\"nofollow noopener noreferrer\">bay</a>"
            ),
            ("<a href=\"javascript:alert(1)\">click</a> me", "click me"),
            ("<a href='data:text/html,x'>d</a><a href=//evil.example>p</a>", "dp"),
            ("<script>alert(1)</script>safe<img src=x onerror=alert(1)>", "safe"),
            ("line one\nline two<br/>three", "line one<br>line two<br>three"),
            (
                "5 &lt; 6 &amp;&amp; <a href=\"http://a.example\">open",
                "5 &lt; 6 &amp;&amp; <a href=\"http://a.example\" rel=\"nofollow noopener noreferrer\">open</a>"
            ),
            // scripts/fuzz html: control characters in a link Foundation's URL parser accepts (it percent-encodes them).
            ("<a href=\"https://oSubstrine/x?a=1&amx.examle\u{01}\u{0}\u{0}\u{08}p\">ok</a>", "ok"),
        ])
    func safeDescription(input: String, expected: String) {
        #expect(HTML.safeDescription(input) == expected)
    }

    @Test(
        "only absolute http(s) URLs are web URLs",
        arguments: [
            ("https://example.org/a", true), ("HTTP://example.org", true), ("javascript:alert(1)", false),
            ("file:///etc/passwd", false), ("//evil.example/x", false), ("photos/1.html", false),
            ("https://example.org/\"><script>", false), ("https://Example.org/a\u{7F}", false),
            ("https://Example.org/a b", false),
            ("https://Example.org/a\u{85}b", false),
        ])
    func webURL(url: String, accepted: Bool) {
        #expect((HTML.webURL(url) != nil) == accepted)
    }

    @Test(
        "record ids become file names that cannot leave the site",
        arguments: [
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

    @Test("a feature is GeoJSON (the server's API): longitude first, null geometry without a coordinate")
    func geoJSON() throws {
        let located = Annotation(
            kind: .photo, id: "1", title: "T", subtitle: "S",
            coordinate: Coordinate(latitude: 48.5, longitude: 2.25))
        let unlocated = Annotation(kind: .photo, id: "2", title: "U", subtitle: "", coordinate: nil)
        let features = try [
            MapData.Feature(located, thumbnail: "s.png", link: "p.html"),
            MapData.Feature(unlocated, thumbnail: nil, link: nil),
        ]
        .map { try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode($0)) as? [String: Any]) }
        #expect((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [2.25, 48.5])
        #expect(features[1]["geometry"] is NSNull)
        #expect((features[0]["properties"] as? [String: Any])?["thumbnail"] as? String == "s.png")
    }

    @Test("a page's data holds its entries as columns, each value given back exactly as photomap-page.js reads it")
    func columns() throws {
        let tricky = [
            "", "a\u{0}b", "e\u{301}\"", "</script><script>x</script>", "\u{2028}", "🏳️‍🌈 flag",
            "id-7 and id-7", "x",
        ]
        var features: [MapData.Feature] = []
        for index in 0..<40 {
            let id = index == 3 ? "" : "id-\(index)"
            let annotation = Annotation(
                kind: index == 5 ? .place : .photo, id: id,
                title: tricky[index % tricky.count] + (index > 30 ? id : ""),
                subtitle: index % 2 == 0 ? "Paris, France" : tricky[(index + 3) % tricky.count],
                coordinate: index == 7
                    ? nil : Coordinate(latitude: 48.5 + Double(index) / 1e5, longitude: 2.25),
                photoCount: index == 5 ? 12 : nil, owner: index % 3 == 0 ? "Owner \u{0}" : nil)
            features.append(
                MapData.Feature(
                    annotation,
                    thumbnail: index == 9 ? nil : "../squares/\(index * 7919)abc.png",
                    link: "../photos/\(id).html"))
        }
        let object = try #require(
            JSONSerialization.jsonObject(
                with: JSONEncoder().encode(MapData(features: features, placeholder: "p.svg")))
                as? [String: Any])
        let entries = try #require(object["entries"] as? [String: Any])
        let ids = try #require(entries["id"] as? [String])
        #expect(ids == features.map(\.properties.id))
        let latitudes = try #require(entries["lat"] as? [Any])
        #expect(latitudes[7] is NSNull && (latitudes[1] as? Double) == 48.50001)
        #expect((entries["photos"] as? [Any])?[5] as? Int == 12)
        let fields: [(String, (MapData.Feature.Properties) -> String?)] = [
            ("kind", { $0.kind }), ("title", { $0.title }), ("subtitle", { $0.subtitle }),
            ("thumbnail", { $0.thumbnail }),
            ("link", { $0.link }), ("owner", { $0.owner }),
        ]
        for (name, field) in fields {
            let column = try #require(entries[name] as? [String: Any], "column \(name)")
            for (index, feature) in features.enumerated() {
                #expect(
                    try Self.value(column, row: index, id: ids[index]) == field(feature.properties),
                    "\(name) of entry \(index)")
            }
        }
        // Shared values cost a number per entry: one link template, one kind, squares between a shared
        // prefix and suffix.
        let link = try #require(entries["link"] as? [String: Any])
        #expect((link["table"] as? [String])?.contains("../photos/\u{0}.html") == true)
        let thumbnail = try #require(entries["thumbnail"] as? [String: Any])
        #expect(thumbnail["prefix"] as? String == "../squares/" && thumbnail["suffix"] as? String == "abc.png")
        #expect(entries["license"] == nil)
    }

    /// A column's value as photomap-page.js computes it: null; a shared template with its NUL replaced by the id;
    /// or prefix + own + suffix.
    static func value(_ column: [String: Any], row: Int, id: String) throws -> String? {
        let rows = try #require(column["rows"] as? [Any])
        switch rows[row] {
        case is NSNull: return nil
        case let text as String:
            return try #require(column["prefix"] as? String) + text + (try #require(column["suffix"] as? String))
        case let number as NSNumber:
            let template = try #require((column["table"] as? [String])?[number.intValue])
            return template.components(separatedBy: "\u{0}").joined(separator: id)
        default: throw ColumnError.unexpectedRow
        }
    }

    enum ColumnError: Error { case unexpectedRow }

    @Test("a page names the places around its annotations, most populous first, and no others")
    func placeLabels() {
        func city(_ name: String, _ latitude: Double, _ longitude: Double, _ population: Int) -> (
            label: PlaceLabels.Label, population: Int
        ) {
            (PlaceLabels.Label(name: name, latitude: latitude, longitude: longitude), population)
        }
        let labels = PlaceLabels(cities: [
            city("Paris", 48.85, 2.35, 2_000_000),
            city("Versailles", 48.80, 2.13, 85_000),
            city("Lyon", 45.75, 4.85, 500_000), city("Suva", -18.14, 178.44, 77_000),
            city("Apia", -13.83, -171.77, 40_000), city("Taveuni", -16.8, 179.99, 1_000),
            city("Matei", -16.7, -179.9, 2_000),
        ])
        let paris = [Coordinate(latitude: 48.86, longitude: 2.34)].compactMap { $0 }
        #expect(labels.near(paris, limit: 10).map(\.name) == ["Paris", "Versailles"])
        #expect(labels.near(paris, limit: 1).map(\.name) == ["Paris"])
        // Across the antimeridian: Fiji's Taveuni and Matei are neighbours.
        let taveuni = [Coordinate(latitude: -16.8, longitude: 179.95)].compactMap { $0 }
        #expect(Set(labels.near(taveuni, limit: 10).map(\.name)) == ["Taveuni", "Matei"])
        #expect(labels.near([], limit: 10).isEmpty)
    }

    @Test(
        "a gazetteer's labels are parsed when first asked for; their version is the file's digest (an edit remakes pages)"
    )
    func placeLabelsFromAGazetteer() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("cities.tsv")
        let header = "geonameid\tname\tlatitude\tlongitude\tcountry\tadmin1\tpopulation\n"
        let rows =
            "1\tParis\t48.85\t2.35\tFR\t11\t2000000\n2\tVersailles\t48.80\t2.13\tFR\t11\t85000\n"
            + "3\t\t48.8\t2.3\tFR\t11\t5\n4\tNowhere\tnorth\t2.3\tFR\t11\t5\n"
        try (header + rows).write(to: file, atomically: true, encoding: .utf8)
        let labels = try PlaceLabels.load(gazetteer: folder.url)
        #expect(labels.version == SHA256.digest(try Data(contentsOf: file)))
        let paris = [Coordinate(latitude: 48.86, longitude: 2.34)].compactMap { $0 }
        #expect(
            labels.near(paris, limit: 10).map(\.name) == ["Paris", "Versailles"],
            "rows without a name or a position are skipped")
        // Read once: the file gone since changes nothing.
        try FileManager.default.removeItem(at: file)
        #expect(labels.near(paris, limit: 1).map(\.name) == ["Paris"])
        #expect(throws: LocationError.self) { try PlaceLabels.load(gazetteer: folder.url) }
    }
}
