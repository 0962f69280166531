// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// The static twin of `serve`'s `/map`: `map.html`, a pre-clustered page whose tiles hold the clusters the
/// database gives `/api/map` (`MapTiling`), for the export's audience, down to the deepest zoom whose
/// clusters stay few (`worldMapClusterBudget`); deeper, the map shows that zoom's clusters, each opening a
/// grid of its photos. Its entries (the list, the grid, the lone photos' callouts) are the site's photos
/// on the map, in the order of their keys (`MapTile.key`), so that the photos of any cluster are one run
/// of them.
extension SiteBuilder {
    /// Where the map of everything is written, and where every page's header links it.
    public static let worldMapPath = "map.html"
    /// A zoom's tiles are made while they hold at most this many clusters together (~100 bytes each, a
    /// zoom's files a megabyte or two); the first zoom past it is left to the zoom before.
    public static let worldMapClusterBudget = 16_384

    /// The site path of the map of everything, which every page's header then links; nil for none.
    public var worldMapPage: String? {
        get { pages.worldMapPage }
        set { pages.worldMapPage = newValue }
    }

    /// What `writeWorldMap` made: its last zoom with tiles, and how many tiles and clusters in all.
    public struct WorldMapSummary: Sendable, Equatable {
        public var lastZoom: Int
        public var tiles: Int
        public var clusters: Int
    }

    /// Writes `map.html` and its tiles, list files and deeper zooms' occupancy (`TileOccupancy`): the
    /// clusters from `tiling` (as `/api/map` gives them to the source's audience), the entries from
    /// `photos` (the site's, each with its page). A photo of a cluster that no page of the site shows is
    /// counted on the map but has no entry.
    @discardableResult
    public func writeWorldMap(
        _ tiling: any MapTiling, photos: some Sequence<AnnotatedPhoto>, back: (path: String, label: String)?
    ) throws -> WorldMapSummary {
        let path = Self.worldMapPath
        let folder = links.prefix + "map"
        let shared = sharedInputs()
        // One entry a photo (several places may list one), located, in key order.
        var seen = Set<String>()
        let keyed =
            photos
            .compactMap { photo -> (key: Int64, photo: AnnotatedPhoto)? in
                guard let at = photo.annotation.coordinate, seen.insert(photo.record.id).inserted else { return nil }
                return (MapTile.key(latitude: at.latitude, longitude: at.longitude), photo)
            }
            .sorted { $0.key < $1.key || ($0.key == $1.key && $0.photo.record.id < $1.photo.record.id) }
        let keys = keyed.map(\.key), entries = keyed.map(\.photo)
        let exact = entries.map { MonthTaken.index($0.annotation.dateTaken) }
        let step = MonthTaken.step(exact)
        let months = exact.map { MonthTaken.stepStart($0, step: step) }

        /// The entries whose keys fall in `range`: one run, since they are in key order.
        func run(_ range: ClosedRange<Int64>) -> Range<Int> {
            func firstIndex(after bound: Int64) -> Int {
                var low = 0, high = keys.count
                while low < high {
                    let middle = (low + high) / 2
                    if keys[middle] <= bound { low = middle + 1 } else { high = middle }
                }
                return low
            }
            return firstIndex(after: range.lowerBound - 1)..<firstIndex(after: range.upperBound)
        }

        var occupied: [String] = []
        var summary = WorldMapSummary(lastZoom: 0, tiles: 0, clusters: 0)
        var zoom = 0
        var current = try Self.clusters(of: [MapTile(zoom: 0, x: 0, y: 0)].compactMap { $0 }, from: tiling)
        while true {
            let clusterCount = current.reduce(0) { $0 + $1.clusters.count }
            // Deeper only while a cluster holds several photos and the next zoom stays within the budget.
            let next =
                zoom < MapTile.aggregatedZooms.upperBound
                    && current.contains(where: { $0.clusters.contains { $0.count > 1 } })
                ? try Self.clusters(of: Self.children(of: current, zoom: zoom), from: tiling) : []
            let last = next.isEmpty || next.reduce(0, { $0 + $1.clusters.count }) > Self.worldMapClusterBudget
            var numbers: [Int] = []
            for (tile, clusters) in current {
                let name = "\(tile.x)/\(tile.y)"
                numbers.append(TileOccupancy.number(x: tile.x, y: tile.y, zoom: zoom))
                let items = try clusters.map { cluster in
                    let members = run(MapTile.keys(ofCell: cluster.cell, level: tile.cellLevel))
                    let lone = cluster.count == 1 ? members.first { entries[$0].record.id == cluster.photo } : nil
                    // The grid opens a cluster that names its photos: any at the last zoom, small ones above.
                    let named = cluster.count > 1 && (last || cluster.count <= GridClusterer.mostMembers)
                    return TileItem(
                        latitude: cluster.latitude, longitude: cluster.longitude, count: cluster.count,
                        months: MonthTaken.histogram(months[members]), members: named ? Array(members) : [],
                        properties: try lone.map { try pages.feature(of: entries[$0], on: path).properties })
                }
                let script = TileItem.script(zoom: zoom, tile: name, items)
                let tilePath = "\(folder)/tiles/\(zoom)/\(name).js"
                let inputs = InputDigest(tilePath, script)
                inputs.add(digest: shared)
                try writer.writePage(tilePath, inputs: inputs) { script }
            }
            if TileOccupancy.pageZooms.contains(zoom) {
                occupied.append(TileOccupancy.bitmap(numbers, zoom: zoom))
            } else {
                let script = TileOccupancy.script(numbers, zoom: zoom)
                let occupiedPath = TileOccupancy.path(folder: folder, zoom: zoom)
                try writer.writePage(occupiedPath, inputs: InputDigest(occupiedPath, script)) { script }
            }
            summary.tiles += numbers.count
            summary.clusters += clusterCount
            if last { break }
            current = next
            zoom += 1
        }
        summary.lastZoom = zoom

        let lists = "\(folder)/lists"
        let listInputs = pageInputs(
            path, title: "Map of everything", subtitle: "", back: back, defaultView: "map", shared: shared)
        for start in stride(from: 0, to: entries.count, by: Self.listChunk) {
            let chunk = entries[start..<min(start + Self.listChunk, entries.count)]
            let number = start / Self.listChunk
            let inputs = number == 0 ? listInputs : InputDigest("\(lists)/\(number).js", path)
            inputs.add(digest: shared)
            for photo in chunk {
                inputs.add(digest: photo.record.inputDigest)
                inputs.add(try links.image(of: photo.record, size: .square))
            }
            guard number > 0 else { continue }
            try writer.writePage("\(lists)/\(number).js", inputs: inputs) {
                PageEntries.chunkScript(number, try pages.features(of: Array(chunk), on: path))
            }
        }
        let latitudes = entries.compactMap(\.annotation.coordinate?.latitude)
        let longitudes = entries.compactMap(\.annotation.coordinate?.longitude)
        var clusters = MapData.ClusterIndex(
            folder: SiteWriter.link(from: path, to: "\(folder)/tiles"), lists: SiteWriter.link(from: path, to: lists),
            listChunk: Self.listChunk, maxZoom: summary.lastZoom, tiles: nil,
            bounds: [
                [latitudes.min() ?? -60, longitudes.min() ?? -180], [latitudes.max() ?? 75, longitudes.max() ?? 180],
            ],
            total: entries.count)
        clusters.occupied = occupied
        clusters.occupiedFiles = SiteWriter.link(from: path, to: TileOccupancy.folder(in: folder))
        clusters.monthStep = step
        clusters.months = MonthTaken.histogram(months)
        clusters.listMonths = stride(from: 0, to: entries.count, by: Self.listChunk).map {
            MonthTaken.histogram(months[$0..<min($0 + Self.listChunk, entries.count)])
        }
        let dated = exact.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        let subtitle = "Every photo with a location · " + Quantity.words(dated, "dated photo", "dated photos")
        // The deeper zooms' files are inputs of their own: the page changes with its zooms and bitmaps.
        for name in [subtitle, String(summary.lastZoom)] + occupied { listInputs.add(name) }
        try writer.writePage(path, inputs: listInputs) {
            try pages.listPage(
                at: path, title: "Map of everything", subtitle: subtitle,
                features: pages.features(of: entries.prefix(Self.listChunk), on: path), back: back,
                defaultView: "map", clusters: clusters)
        }
        return summary
    }

    /// A tile and its clusters.
    private typealias TileClusters = (tile: MapTile, clusters: [MapCluster])

    /// Each tile of `tiles` with its clusters, those with none left out.
    private static func clusters(of tiles: [MapTile], from tiling: any MapTiling) throws -> [TileClusters] {
        try tiles.compactMap { tile in
            let clusters = try tiling.mapClusters(in: tile, months: .all)
            return clusters.isEmpty ? nil : (tile, clusters)
        }
    }

    /// The tiles of the next zoom that hold photos: a cluster's cell (an eighth of its tile a side) lies
    /// in one of them.
    private static func children(of tiles: [TileClusters], zoom: Int) -> [MapTile] {
        var seen = Set<Int64>()
        var children: [MapTile] = []
        for (_, clusters) in tiles {
            for cluster in clusters {
                // The cell is at level zoom + 3: two levels up is its tile at zoom + 1.
                let code = cluster.cell >> Int64(2 * (MapTile.cellBits - 1))
                guard seen.insert(code).inserted, let tile = MapTile(zoom: zoom + 1, morton: code) else { continue }
                children.append(tile)
            }
        }
        return children.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }
}

extension MapTile {
    /// The tile at `zoom` whose x and y `code` interleaves (`interleave`), or nil outside the zoom.
    init?(zoom: Int, morton code: Int64) {
        var x = 0, y = 0
        for bit in 0..<32 {
            x |= Int((code >> Int64(2 * bit)) & 1) << bit
            y |= Int((code >> Int64(2 * bit + 1)) & 1) << bit
        }
        self.init(zoom: zoom, x: x, y: y)
    }
}
