// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// `RecordsFile`: CSV and GeoJSON records read as written elsewhere, every row either a record or a
/// skipped line named by where it starts.
@Suite("Records files: CSV and GeoJSON photo records")
struct RecordsFileTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    static let header = "id,title,taken,latitude,longitude,image\n"

    /// The rows of a file holding `bytes`.
    func rows(_ bytes: [UInt8], name: String = "records.csv") throws -> [RecordsFile.Row] {
        let file = folder.url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        var rows: [RecordsFile.Row] = []
        try RecordsFile.read(path: file.path) { rows.append($0) }
        return rows
    }

    func rows(_ text: String, name: String = "records.csv") throws -> [RecordsFile.Row] {
        try rows(Array(text.utf8), name: name)
    }

    func skipped(_ rows: [RecordsFile.Row]) -> [Int: String] {
        var lines: [Int: String] = [:]
        for row in rows { if case .failure(let problem) = row.record { lines[row.line] = problem.description } }
        return lines
    }

    func records(_ rows: [RecordsFile.Row]) -> [PhotoRecord] {
        rows.compactMap { try? $0.record.get() }
    }

    @Test("quoted commas, quotes and line breaks; lines counted from the header")
    func quoting() throws {
        let read = try rows(
            Self.header + "a,\"Rome, at night\",,,,x.jpg\r\n"
                + "b,\"two\nlines, \"\"quoted\"\"\",2020-02-29 23:59:59,41.9,12.5,https://example.org/b.jpg\n"
                + "c,plain,,,,/abs/c.jpg")
        #expect(read.map(\.line) == [2, 3, 5])
        let got = records(read)
        #expect(got.map(\.title) == ["Rome, at night", "two\nlines, \"quoted\"", "plain"])
        #expect(got[0].image == .file(folder.url.appendingPathComponent("x.jpg").standardizedFileURL.path))
        #expect(got[1].image == .url("https://example.org/b.jpg"))
        #expect(got[1].taken == "2020-02-29 23:59:59")
        #expect(got[1].coordinate == Coordinate(latitude: 41.9, longitude: 12.5))
        #expect(got[2].image == .file("/abs/c.jpg") && got[2].coordinate == nil)
    }

    @Test("numbers that are no coordinates: nan, inf, hex, out of range, half a location")
    func badNumbers() throws {
        let values = ["nan", "inf", "-Infinity", "0x1p3", "1e400", "91", "1,5", "abc", " ", "1..2", "+"]
        var text = Self.header
        for (index, value) in values.enumerated() { text += "n\(index),t,,\"\(value)\",2,x.jpg\n" }
        text += "lon,t,,1,0x10,x.jpg\nhalf,t,,45,,x.jpg\nok,t,,-1.5e1,+180,x.jpg\n"
        let read = try rows(text)
        let lines = skipped(read)
        #expect(lines.count == values.count + 2)
        #expect(lines[2]?.contains("latitude \"nan\"") == true)
        #expect(lines[5]?.contains("0x1p3") == true)
        #expect(lines[Int(values.count) + 2]?.contains("longitude \"0x10\"") == true)
        #expect(records(read).map(\.coordinate) == [Coordinate(latitude: -15, longitude: 180)])
    }

    @Test("missing fields, bad dates, empty ids and images, schemes that are no image")
    func badRows() throws {
        let read = try rows(
            Self.header + "a,t,,1,2\n" + "b,t,2021-02-29 10:00:00,,,x.jpg\n" + "c,t,2021-01-01 24:00:00,,,x.jpg\n"
                + "d,t,2021-1-01 10:00:00,,,x.jpg\n" + " ,t,,,,x.jpg\n" + "f,t,,,,\n" + "g,t,,,,javascript:alert(1)\n"
                + "h,t,,,,a,b\n" + "i,\"unclosed,,,,x.jpg\n")
        #expect(
            skipped(read).keys.sorted() == [2, 3, 4, 5, 6, 7, 8, 9, 10],
            "\(skipped(read))")
        #expect(skipped(read)[2] == "has 5 fields, not 6")
        #expect(skipped(read)[3]?.contains("not YYYY-MM-DD HH:MM:SS") == true)
        #expect(skipped(read)[10] == "a quoted field is not closed")
    }

    @Test("a byte order mark is dropped; a record past the bound is skipped and the next one read")
    func bomAndHugeLine() throws {
        let huge = String(repeating: "x", count: CSVRecordReader.maximumRecordBytes + 10)
        let read = try rows(
            [0xEF, 0xBB, 0xBF] + Array((Self.header + "a,\(huge),,,,x.jpg\nb,after,,,,y.jpg\n").utf8))
        #expect(skipped(read) == [2: "longer than 64 KB"])
        #expect(records(read).map(\.sourceID) == ["b"])
        #expect(read.last?.line == 3)
    }

    @Test("a file that is not records is refused before any row")
    func refused() throws {
        for (name, bytes) in [
            ("binary.csv", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }),
            ("other.csv", Array("name,place\nx,y\n".utf8)), ("empty.csv", []),
            ("array.json", Array("[1, 2]".utf8)),
            ("point.json", Array(#"{"type": "Point", "coordinates": [1, 2]}"#.utf8)),
            ("broken.json", Array(#"{"type": "FeatureCollection", "features": [{"#.utf8)),
        ] {
            #expect(throws: RecordsError.self, "\(name)") { _ = try rows(bytes, name: name) }
        }
    }

    @Test("GeoJSON: Points, null geometry, bad features named by their lines")
    func geoJSON() throws {
        let read = try rows(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [12.5, 41.9]},
               "properties": {"id": 7, "title": "Rome", "taken": "2019-07-01 08:00:00", "image": "r.jpg"}},
              {"type": "Feature", "geometry": null, "properties": {"id": "n", "image": "http://h/n.jpg"}},
              {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]},
               "properties": {"id": "l", "image": "l.jpg"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [200, 10]},
               "properties": {"id": "far", "image": "f.jpg"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": ["nan", 10]},
               "properties": {"id": "nan", "image": "f.jpg"}},
              {"type": "Feature", "geometry": null, "properties": {"title": "no id"}}
            ]}
            """, name: "records.geojson")
        #expect(read.map(\.line) == [2, 4, 5, 7, 9, 11])
        #expect(records(read).map(\.sourceID) == ["7", "n"])
        #expect(records(read).first?.coordinate == Coordinate(latitude: 41.9, longitude: 12.5))
        #expect(skipped(read).keys.sorted() == [5, 7, 9, 11])
    }

    @Test("a record's time is seconds since 1970 in UTC, as a formatter gives it")
    func instants() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        for text in ["1970-01-01 00:00:00", "2000-02-29 12:34:56", "1899-12-31 23:59:59", "2024-12-31 00:00:01"] {
            #expect(RecordPhoto.instant(text) == formatter.date(from: text)?.timeIntervalSince1970, "\(text)")
        }
        #expect(RecordPhoto.photoID(sourceID: "a") == RecordPhoto.photoID(sourceID: "a"))
        #expect(LocalPhotoID.isValid(RecordPhoto.photoID(sourceID: "a")))
        #expect(RecordPhoto.photoID(sourceID: "a") != RecordPhoto.photoID(sourceID: "b"))
    }
}
