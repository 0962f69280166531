// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("Pages: data written as bytes, photo pages written on every core")
struct PageBytesTests {
    /// Text a page must carry exactly: markup, quotes and backslashes, every control character, line
    /// separators, combining marks, a NUL (the columns' id mark), emoji.
    static let tricky = [
        "", "a\u{0}b", "e\u{301}\"", "</script><script>x</script>", "\u{2028}|\u{2029}",
        "🏳️‍🌈 flag", "back\\slash/and/slashes", "\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}\u{85}", "&amp; <!--",
        "id-7 and id-7", "x",
    ]

    /// `count` features (photos, a place, one without a coordinate) over tricky text and coordinates that
    /// round to whole degrees, tiny fractions and negative zero.
    static func features(_ count: Int) -> [MapData.Feature] {
        let latitudes = [48.5, 2.0, -0.0000001, 0.000001, -33.8688197, 89.9999999, 1e-5]
        return (0..<count).map { index in
            let id = index == 3 ? "" : "id-\(index)"
            let annotation = Annotation(
                kind: index == 5 ? .place : .photo, id: id,
                title: tricky[index % tricky.count] + (index > 30 ? id : ""),
                subtitle: index % 2 == 0 ? "Paris, France" : tricky[(index + 3) % tricky.count],
                coordinate: index == 7
                    ? nil
                    : Coordinate(
                        latitude: latitudes[index % latitudes.count],
                        longitude: -179.9999996 + Double(index)),
                photoCount: index == 5 ? 12 : nil,
                owner: index % 3 == 0 ? "Owner \(tricky[index % tricky.count])" : nil,
                dateTaken: index % 4 == 1 ? nil : "20\(10 + index % 9)-0\(1 + index % 9)-14 12:00:00")
            return MapData.Feature(
                annotation, thumbnail: index == 9 ? nil : "../squares/\(index * 7919)abc.png",
                link: "../photos/\(id).html")
        }
    }

    @Test("a page's data written as bytes is what JSONEncoder makes of it, byte for byte", arguments: [0, 1, 2, 40])
    func mapDataBytes(count: Int) throws {
        var data = MapData(features: Self.features(count), placeholder: "../assets/<placeholder>.svg")
        #expect(try data.scriptJSON() == HTML.scriptJSON(data))
        data.labels = [
            PlaceLabels.Label(name: "Saint-Denis </script>", latitude: 48.93561, longitude: 2.35),
            PlaceLabels.Label(name: "\u{2028}", latitude: -0.00001, longitude: 180),
        ]
        data.focus = [48.85, -2]
        data.clusters = MapData.ClusterIndex(
            folder: "../clusters/P", lists: "../lists/P&Q", listChunk: 1000,
            maxZoom: 14, tiles: ["2": ["1/1"], "10": ["5/7", "5/8"]],
            bounds: [[1, 2.5], [3, 4]], total: 9)
        #expect(try data.scriptJSON() == HTML.scriptJSON(data))
        data.monthStep = 12
        data.clusters?.monthStep = 12
        data.clusters?.months = [24122, 3, 24130, 1]
        data.clusters?.listMonths = [[24122, 3], [24130, 1]]
        #expect(try data.scriptJSON() == HTML.scriptJSON(data))
        data.coasts = CoastIndex(tiles: [["1/2"], [], ["7/9", "7/10"]])
        #expect(try data.scriptJSON() == HTML.scriptJSON(data))
        data.coasts = CoastIndex(tiles: nil)
        #expect(try data.scriptJSON() == HTML.scriptJSON(data))
    }

    @Test("a list file and a cluster tile written as bytes are what JSONEncoder makes of them")
    func listFileAndTileBytes() throws {
        let features = Self.features(40)
        #expect(
            PageEntries.chunkScript(3, features)
                == "photomapList(3, \(try HTML.scriptJSON(PageEntries(features))));\n")
        let items = features.enumerated().map { index, feature in
            TileItem(
                latitude: 48.123456789 + Double(index), longitude: -0.0000001, count: index + 1,
                months: index % 3 == 0 ? [] : [24122, index + 1], members: index % 5 == 0 ? [] : [index, 7],
                properties: index % 4 == 0 ? nil : feature.properties)
        }
        #expect(
            TileItem.script(zoom: 12, tile: "2074/1409", items)
                == "photomapTile(12, 2074, 1409, \(try HTML.scriptJSON(items)));\n")
    }

    @Test("the places near a page are the most populous of a full sort, ties broken the same way")
    func labelsMatchFullSort() {
        // Cities in a few neighbouring cells, populations and names tied often.
        let cities = (0..<400).map { index in
            (
                label: PlaceLabels.Label(
                    name: ["Saint-Denis", "Paris", "Ivry", "Zed"][index % 4],
                    latitude: 48.6 + Double(index % 37) / 100,
                    longitude: 2.1 + Double(index % 23) / 50),
                population: (index * 7) % 13 * 1000
            )
        }
        let labels = PlaceLabels(cities: cities)
        let ranked = cities.sorted {
            ($0.population, $1.label.name, $1.label.latitude, $1.label.longitude)
                > ($1.population, $0.label.name, $0.label.latitude, $0.label.longitude)
        }.map(\.label)
        let near = [Coordinate(latitude: 48.8, longitude: 2.4)].compactMap { $0 }
        for limit in [1, 30, 300, 1000] {
            #expect(labels.near(near, limit: limit) == Array(ranked.prefix(limit)), "limit \(limit)")
        }
    }

    @Test(
        "links are percent-encoded as before, whether or not a byte needs it",
        arguments: [
            ("index.html", "places/p.html"), ("places/p.html", "photos/1.html"), ("a/b/c.html", "trip #2.html"),
            ("x.html", "a:b/c?d.html"), ("/a//b/", "é/ü.html"), ("", "photos/%41.html"), ("a/b.html", ""),
            ("paris_files/photos/1.html", "paris_files/squares/0a~-_.png"),
        ])
    func links(page: String, target: String) {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let depth = page.split(separator: "/").count - 1
        let expected =
            String(repeating: "../", count: max(depth, 0))
            + target
            .split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }.joined(separator: "/")
        #expect(SiteWriter.link(from: page, to: target) == expected)
    }

    /// `count` pages for `writePages`, each rendering its own path; renders counted in `renders`.
    static func jobs(_ count: Int, renders: Locked<[String: Int]>) -> [SiteWriter.PageJob] {
        (0..<count).map { index in
            let path = "photos/\(index % 3)/\(index).html"
            return SiteWriter.PageJob(path: path, inputs: InputDigest(path, "v1")) {
                renders.withLock { $0[path, default: 0] += 1 }
                return "page \(path)"
            }
        }
    }

    @Test("pages written together are each rendered and written once, recorded, and not rendered again")
    func writesEveryPageOnce() throws {
        let folder = try TemporaryFolder()
        let renders = Locked([String: Int]())
        let writer = SiteWriter(root: folder.url, keepsManifest: true)
        try writer.begin()
        try writer.writePages(Self.jobs(700, renders: renders))
        try writer.commit()
        #expect(writer.written == 700 && writer.rendered == 700 && writer.unchanged == 0)
        #expect(renders.withLock { $0.count == 700 && $0.values.allSatisfy { $0 == 1 } })
        for index in [0, 1, 350, 699] {
            let path = "photos/\(index % 3)/\(index).html"
            #expect(try String(contentsOf: folder.url.appendingPathComponent(path), encoding: .utf8) == "page \(path)")
            #expect(writer.wroteThisRun(path))
        }
        // Again with the same inputs: every page is current, none is rendered.
        let again = SiteWriter(root: folder.url, keepsManifest: true)
        try again.writePages(Self.jobs(700, renders: renders))
        #expect(again.unchanged == 700 && again.rendered == 0 && again.written == 0)
        #expect(renders.withLock { $0.values.allSatisfy { $0 == 1 } })
    }

    @Test("a page that cannot be written stops the run with its path; the others are written and recorded")
    func failingWriteReports() throws {
        let folder = try TemporaryFolder()
        // A folder where one page's file should go: rename(2) cannot put a file there.
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("photos/1/4.html/x"),
            withIntermediateDirectories: true)
        let renders = Locked([String: Int]())
        let writer = SiteWriter(root: folder.url, keepsManifest: true)
        var failure: (any Error)?
        do { try writer.writePages(Self.jobs(300, renders: renders)) } catch { failure = error }
        guard case let .writeFailed(path, _) = failure as? PageError else {
            Issue.record("expected a write failure, got \(String(describing: failure))")
            return
        }
        #expect(path.hasSuffix("/photos/1/4.html"))
        #expect(writer.wroteThisRun("photos/0/3.html") && writer.wroteThisRun("photos/2/299.html"))
        #expect(!writer.wroteThisRun("photos/1/4.html") && writer.written == 299)
    }

    @Test("a render that throws stops the run with its own error")
    func failingRenderReports() throws {
        struct RenderFailed: Error {}
        let folder = try TemporaryFolder()
        let writer = SiteWriter(root: folder.url)
        let jobs = (0..<10).map { index in
            SiteWriter.PageJob(path: "p/\(index).html", inputs: InputDigest("\(index)")) {
                if index == 6 { throw RenderFailed() }
                return "page \(index)"
            }
        }
        #expect(throws: RenderFailed.self) { try writer.writePages(jobs) }
        #expect(writer.written == 9 && !writer.wroteThisRun("p/6.html"))
    }
}
