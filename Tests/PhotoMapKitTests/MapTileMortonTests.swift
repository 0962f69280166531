// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import PhotoMapKit

/// `MapTile(zoom:morton:)` undoes `MapTile.interleave`: the export finds a zoom's tiles from the cells of
/// the zoom before.
@Suite("A tile from its Morton code")
struct MapTileMortonTests {
    @Test("every tile of zooms 0-3, and the corners of the deepest, come back from their codes")
    func roundTrip() throws {
        var tiles: [MapTile] = (0...3).flatMap { zoom in
            (0..<(1 << zoom)).flatMap { x in (0..<(1 << zoom)).compactMap { MapTile(zoom: zoom, x: x, y: $0) } }
        }
        let last = (1 << MapTile.maximumZoom) - 1
        tiles += [(0, last), (last, 0), (last, last), (12_345, 2_345_678)].compactMap {
            MapTile(zoom: MapTile.maximumZoom, x: $0.0, y: $0.1)
        }
        #expect(tiles.count == 1 + 4 + 16 + 64 + 4)
        for tile in tiles {
            let code = MapTile.interleave(Int64(tile.x), Int64(tile.y))
            #expect(MapTile(zoom: tile.zoom, morton: code) == tile)
        }
        // A code past the zoom's last tile is no tile of it.
        #expect(MapTile(zoom: 1, morton: MapTile.interleave(2, 0)) == nil)
    }

    @Test("a cluster's cell two levels up is the tile of the next zoom that holds it")
    func cellToChild() throws {
        let key = MapTile.key(latitude: 46.05, longitude: 14.5)
        for zoom in 0..<10 {
            let cell = MapTile.cell(ofKey: key, level: zoom + MapTile.cellBits)
            let child = try #require(MapTile(zoom: zoom + 1, morton: cell >> Int64(2 * (MapTile.cellBits - 1))))
            #expect(child.keys.contains(key))
        }
    }
}
