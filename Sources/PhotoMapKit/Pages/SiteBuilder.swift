import Foundation

/// Writes map pages and browsable sites from places and photos: assets, squares and medium images
/// from the thumbnail cache, list/map pages and photo pages, with relative links only. The pages
/// themselves are `PageBuilder`'s, linked through `FolderLinks`.
///
/// Every path here is relative to the writer's root. `prefix` is where the site's own folders go:
/// "" for `export` (assets/, squares/, photos/ beside index.html), "paris_files/" for a map page
/// written as paris.html.
public struct SiteBuilder {
    let writer: SiteWriter
    let assets: PageAssets
    /// Where the pages' images come from.
    public let cache: ThumbnailCache
    private let links: FolderLinks
    private var pages: PageBuilder<FolderLinks>

    /// A builder writing through `writer`, its own folders under `prefix`.
    public init(writer: SiteWriter, assets: PageAssets, cache: ThumbnailCache, adapter: AnnotationAdapter, prefix: String) {
        self.writer = writer
        self.assets = assets
        self.cache = cache
        links = FolderLinks(writer: writer, cache: cache, prefix: prefix)
        pages = PageBuilder(links: links, adapter: adapter, credits: PageCredits([.catalog]))
    }

    /// Who the pages' records come from, credited in each page's footer with Flickr's notice.
    public var credits: PageCredits {
        get { pages.credits }
        set { pages.credits = newValue }
    }

    /// Where the embedded catalog's images are mirrored (`PageBuilder.catalogMirror`).
    public var catalogMirror: ImageHost? {
        get { pages.catalogMirror }
        set { pages.catalogMirror = newValue }
    }

    /// Above this many located annotations a page is clustered ahead of time: markercluster copes with
    /// ~10,000–50,000 markers (its README), and tiles of pre-made clusters with any number.
    public var clusterThreshold = 20_000
    /// How many entries a pre-clustered page lists (the map shows them all).
    public static let listedOnClusteredPages = 1_000

    /// Copies the assets (only what changed).
    public func writeAssets() throws(PageError) {
        try assets.copy(into: writer, folder: links.assets)
    }

    /// The path of a place's photos page.
    public func placePagePath(_ place: Place) -> String { links.placePage(place) }

    /// Writes a page listing places at `path`; each place links to `link(place)` (a site path or a URL).
    public func writePlacesPage(at path: String, title: String, subtitle: String, places: [Place],
                                back: (path: String, label: String)?, defaultView: String,
                                link: (Place) -> String?) throws {
        try writer.write(try pages.listPage(at: path, title: title, subtitle: subtitle, features: pages.features(of: places, on: path, link: link),
                                            back: back, defaultView: defaultView), to: path)
    }

    /// Writes a page listing photos at `path`, and a page for each photo; squares and medium images
    /// are fetched through the cache (already prefetched, ideally) and copied into the site.
    public func writePhotosPage(at path: String, title: String, subtitle: String, photos: [Photo],
                                back: (path: String, label: String)?, defaultView: String) throws {
        for photo in photos {
            let pagePath = links.photoPage(photo)
            try writer.write(try pages.photoPage(photo, at: pagePath, back: (path, title)), to: pagePath)
        }
        let features = try pages.features(of: photos, on: path)
        let located = features.indices.filter { features[$0].geometry != nil }
        guard located.count > clusterThreshold else {
            return try writer.write(try pages.listPage(at: path, title: title, subtitle: subtitle, features: features, back: back,
                                                       defaultView: defaultView), to: path)
        }
        let clusters = try writeClusterTiles(features, located: located, page: path)
        try writer.write(try pages.listPage(at: path, title: title, subtitle: subtitle,
                                            features: Array(features.prefix(Self.listedOnClusteredPages)), back: back,
                                            defaultView: defaultView, clusters: clusters), to: path)
    }

    /// Writes the page's pre-made clusters as `clusters/{page}/{z}/{x}/{y}.js` files, each calling
    /// `photomapTile(z, x, y, [[lat, lon, count, properties or null], …])`.
    private func writeClusterTiles(_ features: [MapData.Feature], located: [Int], page: String) throws -> MapData.ClusterIndex {
        let folder = links.prefix + "clusters/" + URL(fileURLWithPath: page).deletingPathExtension().lastPathComponent
        let clusterer = GridClusterer()
        let points = located.compactMap { index in
            features[index].geometry.flatMap { Coordinate(latitude: $0.coordinates[1], longitude: $0.coordinates[0]) }.map { (index, $0) }
        }
        var tiles: [String: [String]] = [:]
        for (zoom, byTile) in clusterer.clusters(of: points) {
            tiles[String(zoom)] = byTile.keys.sorted()
            for (tile, clusters) in byTile {
                let tilePath = "\(folder)/\(zoom)/\(tile).js"
                // Links inside a tile are made relative to the page that loads it, not to the tile file.
                let items = clusters.map { cluster in
                    TileItem(latitude: cluster.latitude, longitude: cluster.longitude, count: cluster.count,
                             properties: cluster.feature.map { features[$0].properties })
                }
                let xy = tile.split(separator: "/")
                try writer.write("photomapTile(\(zoom), \(xy[0]), \(xy[1]), \(try HTML.scriptJSON(items)));\n", to: tilePath)
            }
        }
        let latitudes = points.map(\.1.latitude), longitudes = points.map(\.1.longitude)
        return MapData.ClusterIndex(folder: SiteWriter.link(from: page, to: folder), maxZoom: clusterer.maximumZoom, tiles: tiles,
                                    bounds: [[latitudes.min() ?? 0, longitudes.min() ?? 0], [latitudes.max() ?? 0, longitudes.max() ?? 0]],
                                    total: features.count)
    }

    /// Writes a map page of mixed annotations (found locations, search results); the first view fits
    /// them all, or centres on `focus`.
    public func writeAnnotationsPage(at path: String, title: String, subtitle: String, annotations: [Annotation],
                                     focus: Coordinate?) throws {
        try writer.write(try pages.listPage(at: path, title: title, subtitle: subtitle, features: pages.features(of: annotations, on: path),
                                            back: nil, defaultView: "map", focus: focus), to: path)
    }
}

/// One entry of a cluster tile, encoded as `[lat, lon, count, properties or null]`.
private struct TileItem: Encodable {
    let latitude: Double, longitude: Double, count: Int
    let properties: MapData.Feature.Properties?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode((latitude * 1e6).rounded() / 1e6)
        try container.encode((longitude * 1e6).rounded() / 1e6)
        try container.encode(count)
        try container.encode(properties)
    }
}
