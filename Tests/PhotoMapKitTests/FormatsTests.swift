// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import Testing

@testable import PhotoMapKit

/// Writes `records` in `format` and returns the text and the chunks the sink received.
private func written(_ format: AnnotationFormat, _ records: [OutputRecord], extraFields: [String] = []) throws
    -> (text: String, chunks: [String], writer: AnnotationWriter)
{
    var chunks: [String] = []
    let writer = AnnotationWriter(format: format, title: "Test & <title>", extraFields: extraFields) {
        chunks.append($0)
    }
    for record in records { try writer.write(record) }
    try writer.finish()
    return (chunks.joined(), chunks, writer)
}

private let located = OutputRecord(
    Annotation(
        kind: .photo, id: "1", title: "Café \"Zoë\" <b>&", subtitle: "line one\nline two",
        coordinate: Coordinate(latitude: -33.5, longitude: 151.25),
        thumbnailURL: "https://live.staticflickr.com/1/1_a_s.jpg", imageURL: "https://live.staticflickr.com/1/1_a.jpg",
        owner: "Ayşe", dateTaken: "2011-04-15 17:48:17", pageURL: "https://www.flickr.com/photos/1%40N05/1"))
private let unlocated = OutputRecord(
    Annotation(
        kind: .photo, id: "2", title: "=HYPERLINK(\"http://x\")", subtitle: "",
        coordinate: nil))

@Suite("Open formats")
struct FormatsTests {
    @Test("GeoJSON: longitude first, null geometry without a coordinate, the fields as properties")
    func geoJSON() throws {
        let text = try written(.geojson, [located, unlocated]).text
        let object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        let features = try #require(object["features"] as? [[String: Any]])
        #expect(features.count == 2)
        let point = try #require(features[0]["geometry"] as? [String: Any])
        #expect(point["coordinates"] as? [Double] == [151.25, -33.5])
        #expect(features[1]["geometry"] is NSNull)
        let properties = try #require(features[0]["properties"] as? [String: Any])
        #expect(properties["title"] as? String == "Café \"Zoë\" <b>&")
        #expect(properties["subtitle"] as? String == "line one\nline two")
        #expect(properties["pageURL"] as? String == "https://www.flickr.com/photos/1%40N05/1")
        #expect(properties["latitude"] == nil)
    }

    @Test("JSON: the listing's array, latitude and longitude null without a coordinate, extras after the fields")
    func json() throws {
        let withExtras = OutputRecord(
            located.annotation,
            extras: [.init("query", .text("bridge")), .init("distanceKm", .null)])
        let text = try written(.json, [withExtras, unlocated], extraFields: ["query", "distanceKm"]).text
        let array = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        #expect(array[0]["query"] as? String == "bridge" && array[0]["distanceKm"] is NSNull)
        #expect(array[1]["latitude"] is NSNull && array[1]["longitude"] is NSNull && array[1]["photoCount"] == nil)
        #expect(try written(.json, []).text == "[]\n")
    }

    @Test("control characters stay valid in JSON and are replaced in XML, which cannot hold them")
    func controlCharacters() throws {
        let record = OutputRecord(
            Annotation(
                kind: .place, id: "p", title: "a\u{01}b\u{1B}c\u{FFFF}", subtitle: "",
                coordinate: nil))
        let json = try written(.json, [record]).text
        #expect(json.contains(#""a\u0001b\u001bc\#u{FFFF}""#))
        #expect(try written(.kml, [record]).text.contains("<name>a\u{FFFD}b\u{FFFD}c\u{FFFD}</name>"))
    }

    @Test("KML: escaped for XML, the description's HTML escaped twice, Point as lon,lat, no Point without a coordinate")
    func kml() throws {
        let text = try written(.kml, [located, unlocated]).text
        #expect(text.contains("<name>Test &amp; &lt;title&gt;</name>"))
        #expect(text.contains("<name>Café &quot;Zoë&quot; &lt;b&gt;&amp;</name>"))
        #expect(text.contains("<Point><coordinates>151.25,-33.5</coordinates></Point>"))
        #expect(text.contains("<TimeStamp><when>2011-04-15T17:48:17</when></TimeStamp>"))
        #expect(text.contains("&lt;img src=&quot;https://live.staticflickr.com/1/1_a_s.jpg&quot;"))
        #expect(text.components(separatedBy: "<Placemark>").count == 3)
        #expect(text.components(separatedBy: "<Point>").count == 2)
    }

    @Test("GPX: waypoints only for records with a coordinate; the rest are counted as left out")
    func gpx() throws {
        let (text, _, writer) = try written(.gpx, [located, unlocated])
        #expect(writer.written == 1 && writer.leftOut == 1)
        #expect(
            text.contains(
                "<wpt lat=\"-33.5\" lon=\"151.25\">\n<time>2011-04-15T17:48:17</time>\n<name>Café &quot;Zoë&quot; &lt;b&gt;&amp;</name>"
            ))
        #expect(
            text.contains(
                "<link href=\"https://www.flickr.com/photos/1%40N05/1\"><text>The photo on Flickr</text></link>"))
        #expect(!text.contains("HYPERLINK"))
    }

    @Test(
        "CSV cells: formula starts neutralised in text, not in numbers; quotes doubled; line breaks quoted",
        arguments: [
            (OutputRecord.Value.text("=1+2"), "'=1+2"), (.text("+1"), "'+1"), (.text("-1"), "'-1"),
            (.text("@SUM(A1)"), "'@SUM(A1)"),
            (.text("\tx"), "'\tx"), (.text("\rx"), "\"'\rx\""), (.number(-73.98), "-73.98"), (.text("a,b"), "\"a,b\""),
            (.text("say \"hi\""), "\"say \"\"hi\"\"\""), (.text("a\nb"), "\"a\nb\""), (.null, ""),
            (.text("שלום"), "שלום"),
        ])
    func csvCells(value: OutputRecord.Value, cell: String) {
        #expect(CSVFormatter.cell(value) == cell)
    }

    @Test("CSV: a header of every field, CRLF rows, empty cells for what a record lacks")
    func csv() throws {
        let text = try written(.csv, [unlocated], extraFields: ["query"]).text
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines[0] == (OutputRecord.standardFields + ["query"]).joined(separator: ","))
        #expect(lines[1] == "photo,2,\"'=HYPERLINK(\"\"http://x\"\")\",,,,,,,,,,,")
        #expect(lines.count == 3 && lines[2].isEmpty)
    }

    @Test("a listing streams: the sink gets whole records in chunks of about 64 KB, never the whole output")
    func streams() throws {
        let records = (0..<5000).map { index in
            OutputRecord(
                Annotation(
                    kind: .photo, id: String(index), title: "Photo \(index)",
                    subtitle: String(repeating: "x", count: 100),
                    coordinate: Coordinate(latitude: 10, longitude: 20)))
        }
        for format in AnnotationFormat.allCases {
            let (text, chunks, writer) = try written(format, records)
            #expect(writer.written == 5000)
            #expect(chunks.count > 5)
            #expect(chunks.dropLast().allSatisfy { $0.utf8.count >= 64 * 1024 && $0.utf8.count < 64 * 1024 + 1024 })
            #expect(text.utf8.count > 5 * 64 * 1024)
        }
    }

    @Test(
        "Flickr's date taken becomes an xsd:dateTime; unknown and malformed dates none",
        arguments: [
            ("2011-04-15 17:48:17", "2011-04-15T17:48:17"), ("1969-12-31 16:00:00", nil), ("0000-00-00 00:00:00", nil),
            ("2011-13-15 17:48:17", nil), ("2011-04-15", nil), ("2011-04-15 17:48:17x", nil), ("", nil),
            ("2011-04-15T17:48:17", nil),
        ])
    func dateTaken(text: String, expected: String?) {
        #expect(DateTaken.dateTime(text) == expected)
    }

    @Test("the format a file's extension names")
    func fromFileName() {
        #expect(AnnotationFormat(fileName: "out/places.GeoJSON") == .geojson)
        #expect(AnnotationFormat(fileName: "a.b.kml") == .kml)
        #expect(AnnotationFormat(fileName: "places.txt") == nil)
        #expect(AnnotationFormat(fileName: "csv") == nil)
    }

    @Test(
        "Flickr pages: a photo's from its owner's NSID, a place's from its place_url; hostile parts stay in their segment"
    )
    func flickrPages() {
        #expect(
            Photo(id: "53329638863", owner: "12345678@N05").flickrPageURL
                == "https://www.flickr.com/photos/12345678@N05/53329638863")
        #expect(
            Photo(id: "1/../../x", owner: "a b").flickrPageURL == "https://www.flickr.com/photos/a%20b/1%2F..%2F..%2Fx")
        #expect(Photo(id: "1").flickrPageURL == nil)
        #expect(
            Place(id: "p", fullName: "P", url: "/France/Paris").flickrPageURL
                == "https://www.flickr.com/places/France/Paris")
        #expect(Place(id: "p", fullName: "P").flickrPageURL == nil)
        let hostile = Place(id: "p", fullName: "P", url: "/a \"b\"<c>\n%").flickrPageURL
        #expect(hostile == "https://www.flickr.com/places/a%20%22b%22%3Cc%3E%0A%25")
        #expect(hostile.flatMap(HTML.webURL) == hostile, "a link the pages keep as it is")
    }

    @Test("a staged file appears only on commit; given up, it leaves nothing behind")
    func stagedFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("staged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("out.csv")
        do {
            let staged = try StagedFile(replacing: file)
            try staged.write("half")
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let staged = try StagedFile(replacing: file)
        try staged.write("whole")
        try staged.commit()
        #expect(try String(contentsOf: file, encoding: .utf8) == "whole")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.csv"])
        // A second version replaces the first whole (a nameless file is not linked over one: renamed),
        // and one in the working directory's terms works too.
        let again = try StagedFile(replacing: file)
        try again.write("again")
        let inode = try again.status().st_ino
        try again.commit()
        #expect(try String(contentsOf: file, encoding: .utf8) == "again")
        var status = stat()
        #expect(
            stat(file.path, &status) == 0 && status.st_ino == inode && status.st_mode & 0o777 == 0o644 & ~currentUmask()
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.csv"])
        #expect(throws: POSIXError.self) { try StagedFile(replacing: folder.appendingPathComponent("missing/out.csv")) }
        // A folder removed while its file was being written: the commit fails with ENOENT, leaving nothing.
        let gone = folder.appendingPathComponent("gone")
        try FileManager.default.createDirectory(at: gone, withIntermediateDirectories: true)
        let orphan = try StagedFile(replacing: gone.appendingPathComponent("out.csv"))
        try orphan.write("orphan")
        if rmdir(gone.path) == 0 {
            #expect(throws: POSIXError(.ENOENT)) { try orphan.commit() }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.csv"])
    }

    private func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}
