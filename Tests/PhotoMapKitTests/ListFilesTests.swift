// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Pages: the list files of pages clustered ahead of time")
struct ListFilesTests {
    /// 2,345 photos over the (lowered) threshold: the page holds 1,000 entries, list files 1 and 2 the rest.
    /// All within a few metres, so that few cluster tiles are written.
    static let photos: [Photo] = (0..<2_345).map { index in
        let tricky = ["", "a\u{0}b", "e\u{301}\"", "</script><script>x</script>", "\u{2028}", "🏳️‍🌈 flag", "x"]
        return Photo(
            id: "\(index)", title: tricky[index % tricky.count] + " \(index)",
            descriptionHTML: index % 5 == 0 ? "" : "about \(index)",
            ownerName: index % 3 == 0 ? "Owner \u{0}" : "",
            coordinate: index % 97 == 0
                ? nil
                : Coordinate(latitude: 48 + Double(index % 50) / 1e5, longitude: 2 + Double(index) / 1e7))
    }

    /// Exports `photos` into `folder`'s site as places/P.html, clustered ahead of time.
    static func export(_ photos: [Photo], into folder: TemporaryFolder) throws -> SiteWriter {
        let writer = SiteWriter(root: folder.url.appendingPathComponent("site"), keepsManifest: true)
        let cache = ThumbnailCache(
            cacheDirectory: folder.url.appendingPathComponent("cache"),
            origin: FixtureImageOrigin(folder: folder.url))
        var builder = SiteBuilder(writer: writer, assets: try PageAssets.locate(), images: cache, prefix: "")
        builder.clusterThreshold = 10
        try builder.writePhotosPage(
            at: "places/P.html", title: "P", subtitle: "",
            photos: AnnotationAdapter().annotated(photos), back: nil, defaultView: "list")
        try writer.commit()
        return writer
    }

    /// The JSON object a page embeds, or a list file `photomapList(n, …);` passes.
    static func object(_ text: String, after start: String, before end: String) throws -> [String: Any] {
        let from = try #require(text.range(of: start)).upperBound
        let to = try #require(text.range(of: end, range: from..<text.endIndex)).lowerBound
        return try #require(JSONSerialization.jsonObject(with: Data(text[from..<to].utf8)) as? [String: Any])
    }

    @Test("every entry is in the page or one list file, exactly once and in order, each value given back exactly")
    func everyEntryOnce() throws {
        let folder = try TemporaryFolder()
        _ = try Self.export(Self.photos, into: folder)
        let site = folder.url.appendingPathComponent("site")
        let page = try String(contentsOf: site.appendingPathComponent("places/P.html"), encoding: .utf8)
        let data = try Self.object(page, after: "id=\"photomap-annotations\">", before: "</script>")
        let clusters = try #require(data["clusters"] as? [String: Any])
        #expect(clusters["lists"] as? String == "../lists/P" && clusters["listChunk"] as? Int == 1_000)
        #expect(clusters["total"] as? Int == Self.photos.count)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("lists/P").path)
                .sorted() == ["1.js", "2.js"])
        var parts = [try #require(data["entries"] as? [String: Any])]
        for number in 1...2 {
            let script = try String(contentsOf: site.appendingPathComponent("lists/P/\(number).js"), encoding: .utf8)
            #expect(script.hasPrefix("photomapList(\(number), {") && script.hasSuffix("});\n"))
            #expect(!script.contains("</script>"), "markup in a list file is escaped as in a page")
            parts.append(try Self.object(script, after: "photomapList(\(number), ", before: ");\n"))
        }
        #expect(parts.map { ($0["id"] as? [String])?.count } == [1_000, 1_000, 345])

        // The entries read back, part after part, are the photos' annotations in order, byte for byte.
        let expected = AnnotationAdapter().annotated(Self.photos).map(\.annotation)
        var index = 0
        for part in parts {
            let ids = try #require(part["id"] as? [String])
            let latitudes = try #require(part["lat"] as? [Any])
            for (row, id) in ids.enumerated() {
                let annotation = expected[index]
                #expect(id == annotation.id)
                #expect((latitudes[row] is NSNull) == (annotation.coordinate == nil), "location of \(id)")
                let fields: [(String, String?)] = [
                    ("title", annotation.title), ("subtitle", annotation.subtitle),
                    ("link", "../photos/\(id).html"), ("owner", annotation.owner.flatMap { $0.isEmpty ? nil : $0 }),
                ]
                for (name, value) in fields {
                    let column = try #require(part[name] as? [String: Any], "column \(name)")
                    let read = try SiteWriterTests.value(column, row: row, id: id)
                    #expect(
                        read.map { Array($0.unicodeScalars) } == value.map { Array($0.unicodeScalars) },
                        "\(name) of \(id)")
                }
                index += 1
            }
        }
        #expect(index == Self.photos.count)
    }

    @Test("the manifest knows the list files: nothing changed renders none, an edited title rewrites only its file")
    func rewritesOnlyTheChangedFile() throws {
        let folder = try TemporaryFolder()
        _ = try Self.export(Self.photos, into: folder)
        let site = folder.url.appendingPathComponent("site")
        let manifest = try String(contentsOf: site.appendingPathComponent(SiteManifest.fileName), encoding: .utf8)
        #expect(manifest.contains("\tlists/P/1.js\n") && manifest.contains("\tlists/P/2.js\n"))
        /// The file's inode, size and modification time: a file rewritten (renamed into place) has another.
        func identity(_ path: String) throws -> String {
            let attributes = try FileManager.default.attributesOfItem(atPath: site.appendingPathComponent(path).path)
            return [FileAttributeKey.systemFileNumber, .size, .modificationDate]
                .map { "\(attributes[$0] ?? "none")" }.joined(separator: " ")
        }
        let before = try ["lists/P/1.js", "lists/P/2.js"].map(identity)

        let again = try Self.export(Self.photos, into: folder)
        #expect(again.rendered == 0 && again.written == 0)
        #expect(try ["lists/P/1.js", "lists/P/2.js"].map(identity) == before)

        var edited = Self.photos
        edited[2_100].title = "An edited title"
        let afterEdit = try Self.export(edited, into: folder)
        // The photo's page, the list page and list file 2. No tile: the photo lies 0.4 m from photos 2,050 and
        // 2,150, one spot that stays one cluster at every zoom, and a cluster's tile names its photos by id
        // alone. List file 1 neither rendered nor written.
        #expect(afterEdit.rendered == 3)
        #expect(try identity("lists/P/1.js") == before[0])
        #expect(try identity("lists/P/2.js") != before[1])
        let script = try String(contentsOf: site.appendingPathComponent("lists/P/2.js"), encoding: .utf8)
        #expect(script.contains("An edited title"))
    }
}
