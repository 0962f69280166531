// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

/// The clustering rule exists twice: `GridClusterer` pre-clusters a large site's pages, and the page's
/// script (photomap-clusters.js, `clustersAt`) clusters a smaller page's own annotations with the radius and last
/// zoom the page carries. Both, run under node on the same points, give the same clusters at every zoom.
@Suite("Clustering: GridClusterer and the page's script")
struct ClusteringParityTests {
    /// Points in three clumps (a city's photos), some sharing a spot (one cluster at the last zoom), and
    /// some at the edges of the Web Mercator world.
    static let points: [(index: Int, coordinate: Coordinate)] = {
        var state: UInt64 = 42
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var coordinates: [Coordinate] = []
        for (latitude, longitude, spread) in [(48.8566, 2.3522, 0.2), (40.7128, -74.006, 2.0), (-33.92, 18.42, 30.0)] {
            for _ in 0..<150 {
                coordinates.append(
                    Coordinate(
                        latitude: latitude + (random() - 0.5) * spread,
                        longitude: longitude + (random() - 0.5) * spread)!)
            }
        }
        for _ in 0..<6 { coordinates.append(Coordinate(latitude: 51.5, longitude: -0.12)!) }
        coordinates += [
            Coordinate(latitude: 89.9, longitude: 180)!, Coordinate(latitude: -89.9, longitude: -180)!,
            Coordinate(latitude: 0, longitude: 179.9999)!,
        ]
        return coordinates.enumerated().map { ($0.offset, $0.element) }
    }()

    @Test("the same clusters, in the same order, at each zoom from 0 to the last")
    func sameClusters() throws {
        // The rule as the page carries it.
        let page = try MapData(features: [], placeholder: "").scriptJSON()
        let pageData = try #require(try JSONSerialization.jsonObject(with: Data(page.utf8)) as? [String: Any])
        let rule = try #require(pageData["cluster"] as? [String: Any])
        let clusterer = GridClusterer()
        #expect(rule["radius"] as? Double == clusterer.radius && rule["lastZoom"] as? Int == clusterer.maximumZoom)
        #expect(rule["spot"] as? Double == GridClusterer.spot)

        let input = try JSONSerialization.data(withJSONObject: [
            "cluster": rule, "lat": Self.points.map(\.coordinate.latitude),
            "lon": Self.points.map(\.coordinate.longitude),
        ])
        let folder = try TemporaryFolder()
        let inputFile = folder.url.appendingPathComponent("points.json")
        try input.write(to: inputFile)
        let root = LoopbackServer.repositoryRoot
        let output = try Subprocess.output(
            "/usr/bin/env",
            [
                "node", root.appendingPathComponent("Tests/Support/page_clusters.js").path,
                root.appendingPathComponent("Sources/PhotoMapKit/Pages/Assets/photomap-clusters.js").path,
                inputFile.path,
            ])
        let script = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: [[Any]]]])
        #expect(script.count == clusterer.maximumZoom + 1)
        for zoom in 0...clusterer.maximumZoom {
            let swift = clusterer.clusters(of: Self.points, zoom: zoom)
            let page = script[String(zoom)] ?? [:]
            #expect(Set(swift.keys) == Set(page.keys), "zoom \(zoom): tiles")
            for (tile, clusters) in swift {
                let theirs = page[tile] ?? []
                #expect(clusters.count == theirs.count, "zoom \(zoom), tile \(tile): cluster count")
                for (mine, their) in zip(clusters, theirs) {
                    let latitude = their[0] as? Double ?? .nan, longitude = their[1] as? Double ?? .nan
                    #expect(
                        abs(mine.latitude - latitude) < 1e-9 && abs(mine.longitude - longitude) < 1e-9,
                        "zoom \(zoom), tile \(tile): \(mine) vs \(their)")
                    #expect(
                        mine.count == their[2] as? Int && mine.feature == their[3] as? Int,
                        "zoom \(zoom), tile \(tile): \(mine) vs \(their)")
                }
            }
        }
    }
}
