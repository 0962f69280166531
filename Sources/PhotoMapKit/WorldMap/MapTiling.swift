// SPDX-License-Identifier: Apache-2.0
/// A source that can answer the map of everything a tile at a time (`/api/map/Z/X/Y.json`).
public protocol MapTiling: Sendable {
    /// The clusters of the photos in `tile` taken in `months`, as others may see them.
    func mapClusters(in tile: MapTile, months: MonthRange) throws -> [MapCluster]
    /// The photos on the map by month, `[month, count, …]`.
    func mapMonths() throws -> [Int]
}

extension LocalSource: MapTiling {
    /// The imported photos' clusters; none before anything was imported.
    public func mapClusters(in tile: MapTile, months: MonthRange) throws -> [MapCluster] {
        try catalogIfAny()?.mapClusters(in: tile, months: months) ?? []
    }

    public func mapMonths() throws -> [Int] {
        try catalogIfAny()?.mapMonths() ?? []
    }
}
