// SPDX-License-Identifier: Apache-2.0
/// One cluster of a map tile: the photos of one cell (an eighth of the tile a side), at their mean,
/// how many, one to show for them (the least id), and their earliest and latest month.
public struct MapCluster: Sendable, Hashable, Encodable {
    public var latitude: Double
    public var longitude: Double
    public var count: Int
    public var photo: String
    /// Months as `MonthTaken` numbers; nil when no photo of the cluster has a date.
    public var from: Int?
    public var to: Int?
    /// The cell it is made of (a Morton code at the tile's cell level): the order of a tile's clusters.
    var cell: Int64

    private enum CodingKeys: String, CodingKey { case latitude, longitude, count, photo, from, to }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(latitude, forKey: .latitude)
        try values.encode(longitude, forKey: .longitude)
        try values.encode(count, forKey: .count)
        try values.encode(photo, forKey: .photo)
        // Null, not left out: the API says a cluster without dates has null months.
        try values.encode(from.map(MonthRange.text), forKey: .from)
        try values.encode(to.map(MonthRange.text), forKey: .to)
    }
}

/// A located photo as the map counts it: its key (`MapTile.key`), month (-1 for none) and who sees it
/// (`MapAudience`).
public struct MapPoint: Sendable, Hashable {
    public var id: String
    public var key: Int64
    public var month: Int
    public var latitude: Double
    public var longitude: Double
    var audience: Int

    /// A point everyone sees, keyed from its coordinate.
    public init(id: String, month: Int?, latitude: Double, longitude: Double) {
        self.init(id: id, month: month, latitude: latitude, longitude: longitude, audience: 0)
    }

    /// A point keyed from its coordinate, seen by the viewers of `audience` (a `MapAudience` code).
    init(id: String, month: Int?, latitude: Double, longitude: Double, audience: Int) {
        self.init(
            id: id, key: MapTile.key(latitude: latitude, longitude: longitude), month: month ?? -1,
            latitude: latitude, longitude: longitude, audience: audience)
    }

    init(id: String, key: Int64, month: Int, latitude: Double, longitude: Double, audience: Int) {
        self.id = id
        self.key = key
        self.month = month
        self.latitude = latitude
        self.longitude = longitude
        self.audience = audience
    }
}

extension MapTile {
    /// The clusters of `points` in this tile and `months` (points elsewhere are left out): the way
    /// deep tiles are made from their points, and the naive way the benchmark compares against.
    func clusters(of points: some Sequence<MapPoint>, months: MonthRange) -> [MapCluster] {
        let keys = self.keys, level = cellLevel
        var cells: [Int64: MapCluster] = [:]
        for point in points where keys.contains(point.key) && months.contains(point.month) {
            let cell = Self.cell(ofKey: point.key, level: level)
            let month = point.month >= 0 ? point.month : nil
            guard var cluster = cells[cell] else {
                cells[cell] = MapCluster(
                    latitude: point.latitude, longitude: point.longitude, count: 1, photo: point.id, from: month,
                    to: month, cell: cell)
                continue
            }
            // Sums until the end, then the mean.
            cluster.latitude += point.latitude
            cluster.longitude += point.longitude
            cluster.count += 1
            cluster.photo = min(cluster.photo, point.id)
            if let month {
                cluster.from = min(cluster.from ?? month, month)
                cluster.to = max(cluster.to ?? month, month)
            }
            cells[cell] = cluster
        }
        return cells.values.sorted { $0.cell < $1.cell }.map { cluster in
            var mean = cluster
            mean.latitude /= Double(cluster.count)
            mean.longitude /= Double(cluster.count)
            return mean
        }
    }
}

extension MapCluster {
    /// A cluster of a tile's cells summed (`MapGridSQL`): at the mean of their sums in units, or, of one
    /// photo, where that photo is (`least`: the coordinate the cells keep of their least id, exact).
    init(
        cell: Int64, count: Int, sums: (latitude: Double, longitude: Double),
        least: (latitude: Double, longitude: Double), photo: String, from: Int?, last: Int
    ) {
        let (latitude, longitude) =
            count == 1
            ? least
            : (MapGridSQL.centre(sums.latitude, count: count), MapGridSQL.centre(sums.longitude, count: count))
        self.init(
            latitude: latitude, longitude: longitude, count: count, photo: photo, from: from,
            to: last >= 0 ? last : nil, cell: cell)
    }
}
