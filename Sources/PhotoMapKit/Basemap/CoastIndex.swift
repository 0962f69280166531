// SPDX-License-Identifier: Apache-2.0
/// What a page needs to load its coasts (`MapData.coasts`): each level of detail as
/// `[first zoom, last zoom, tile side, quantum, overlap]` in grid units, the units per degree, and the
/// tiles of each level a written page may load ("x/y"); a served page, which may load any, has none.
public struct CoastIndex: Encodable, Sendable, Equatable {
    public var levels: [[Int]]
    public var scale = GridPoint.perDegree
    public var tiles: [[String]]?

    /// The index of `CoastTiles.levels`, listing `tiles` (nil: any).
    public init(tiles: [[String]]?) {
        levels = CoastTiles.levels.map {
            [$0.zooms.lowerBound, $0.zooms.upperBound, $0.tile, $0.quantum, $0.overlap]
        }
        self.tiles = tiles
    }

    /// The same bytes as `HTML.scriptJSON(self)`, written directly (`ScriptJSON`).
    func write(to json: inout ScriptJSON) {
        json.raw("{\"levels\":")
        json.array(levels) { json, level in json.array(level) { $0.number($1) } }
        json.raw(",\"scale\":")
        json.number(scale)
        if let tiles {
            json.raw(",\"tiles\":")
            json.array(tiles) { json, keys in json.array(keys) { $0.string($1) } }
        }
        json.raw("}")
    }
}
