import Foundation

/// Writes map pages and browsable sites from places and photos: assets, squares and medium images
/// from the thumbnail cache, list/map pages and photo pages, with relative links only.
///
/// Every path here is relative to the writer's root. `prefix` is where the site's own folders go:
/// "" for `export` (assets/, squares/, photos/ beside index.html), "paris_files/" for a map page
/// written as paris.html.
public struct SiteBuilder {
    let writer: SiteWriter
    let assets: PageAssets
    /// Where the pages' images come from.
    public let cache: ThumbnailCache
    let adapter: AnnotationAdapter
    let prefix: String

    /// A builder writing through `writer`, its own folders under `prefix`.
    public init(writer: SiteWriter, assets: PageAssets, cache: ThumbnailCache, adapter: AnnotationAdapter, prefix: String) {
        self.writer = writer
        self.assets = assets
        self.cache = cache
        self.adapter = adapter
        self.prefix = prefix
    }

    var assetsFolder: String { prefix + "assets" }

    /// Who the pages' records come from, credited in each page's footer with Flickr's notice.
    public var credits = PageCredits([.catalog])

    /// Above this many located annotations a page is clustered ahead of time: markercluster copes with
    /// ~10,000–50,000 markers (its README), and tiles of pre-made clusters with any number.
    public var clusterThreshold = 20_000
    /// How many entries a pre-clustered page lists (the map shows them all).
    public static let listedOnClusteredPages = 1_000

    /// Copies the assets (only what changed).
    public func writeAssets() throws(PageError) {
        try assets.copy(into: writer, folder: assetsFolder)
    }

    /// The path of a place's photos page.
    public func placePagePath(_ place: Place) -> String { prefix + "places/\(HTML.fileName(for: place.id)).html" }

    /// The path of a photo's page.
    public func photoPagePath(_ photo: Photo) -> String { prefix + "photos/\(HTML.fileName(for: photo.id)).html" }

    /// Writes a page listing places at `path`; each place links to `link(place)` (a site path or a URL).
    public func writePlacesPage(at path: String, title: String, subtitle: String, places: [Place],
                                back: (path: String, label: String)?, defaultView: String,
                                link: (Place) -> String?) throws {
        let features = places.map { place in
            MapData.Feature(adapter.annotation(for: place), thumbnail: nil, link: link(place).flatMap { relative($0, from: path) })
        }
        try writeListPage(at: path, title: title, subtitle: subtitle, features: features, back: back, defaultView: defaultView)
    }

    /// Writes a page listing photos at `path`, and a page for each photo; squares and medium images
    /// are fetched through the cache (already prefetched, ideally) and copied into the site.
    public func writePhotosPage(at path: String, title: String, subtitle: String, photos: [Photo],
                                back: (path: String, label: String)?, defaultView: String) throws {
        var features: [MapData.Feature] = []
        for photo in photos {
            let annotation = adapter.annotation(for: photo)
            let square = try copyImage(of: photo, size: .square, folder: "squares")
            let pagePath = photoPagePath(photo)
            try writePhotoPage(photo, annotation: annotation, square: square, at: pagePath,
                               back: (path, title))
            features.append(MapData.Feature(annotation, thumbnail: square.flatMap { relative($0, from: path) },
                                            link: relative(pagePath, from: path)))
        }
        let located = features.indices.filter { features[$0].geometry != nil }
        guard located.count > clusterThreshold else {
            return try writeListPage(at: path, title: title, subtitle: subtitle, features: features, back: back, defaultView: defaultView)
        }
        let clusters = try writeClusterTiles(features, located: located, page: path)
        try writeListPage(at: path, title: title, subtitle: subtitle, features: Array(features.prefix(Self.listedOnClusteredPages)),
                          back: back, defaultView: defaultView, clusters: clusters)
    }

    /// Writes the page's pre-made clusters as `clusters/{page}/{z}/{x}/{y}.js` files, each calling
    /// `photomapTile(z, x, y, [[lat, lon, count, properties or null], …])`.
    private func writeClusterTiles(_ features: [MapData.Feature], located: [Int], page: String) throws -> MapData.ClusterIndex {
        let folder = prefix + "clusters/" + URL(fileURLWithPath: page).deletingPathExtension().lastPathComponent
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

    /// Writes a map page of mixed annotations (found locations, search results): photos show their
    /// square and link to their medium image (and, as every photo does, to their page on Flickr); the
    /// first view fits them all, or centres on `focus`.
    public func writeAnnotationsPage(at path: String, title: String, subtitle: String, annotations: [Annotation],
                                     focus: Coordinate?) throws {
        var features: [MapData.Feature] = []
        for annotation in annotations {
            var link: String?
            var square: String?
            if annotation.kind == .photo {
                // Search results carry the image URLs, which is all the cache needs.
                var images: [PhotoSize: ImageReference] = [:]
                images[.square] = annotation.thumbnailURL.map { ImageReference(url: $0) }
                images[.medium] = annotation.imageURL.map { ImageReference(url: $0) }
                let photo = Photo(id: annotation.id, images: images)
                square = try copyImage(of: photo, size: .square, folder: "squares").flatMap { relative($0, from: path) }
                link = try copyImage(of: photo, size: .medium, folder: "images").flatMap { relative($0, from: path) }
            }
            features.append(MapData.Feature(annotation, thumbnail: square, link: link))
        }
        var data = mapData(features, for: path)
        data.focus = focus.map { [$0.latitude, $0.longitude] }
        try writer.write(try PageRenderer.listPage(title: title, subtitle: subtitle, data: data, links: links(for: path, back: nil),
                                                   defaultView: "map", credits: credits), to: path)
    }

    /// A page's map data, its placeholder linked from the page.
    private func mapData(_ features: [MapData.Feature], for path: String) -> MapData {
        MapData(features: features, placeholder: SiteWriter.link(from: path, to: assetsFolder + "/placeholder.svg"))
    }

    /// A page's links to the assets and back.
    private func links(for path: String, back: (path: String, label: String)?) -> PageRenderer.Links {
        PageRenderer.Links(assets: SiteWriter.link(from: path, to: assetsFolder),
                           back: back.map { (SiteWriter.link(from: path, to: $0.path), $0.label) })
    }

    private func writePhotoPage(_ photo: Photo, annotation: Annotation, square: String?, at path: String,
                                back: (path: String, label: String)) throws {
        let image = try copyImage(of: photo, size: .medium, folder: "images")
        let data = mapData([MapData.Feature(annotation, thumbnail: square.flatMap { relative($0, from: path) }, link: nil)], for: path)
        try writer.write(try PageRenderer.photoPage(annotation: annotation, photo: photo, image: image.flatMap { relative($0, from: path) },
                                                    data: data, links: links(for: path, back: back), credits: credits),
                         to: path)
    }

    private func writeListPage(at path: String, title: String, subtitle: String, features: [MapData.Feature],
                               back: (path: String, label: String)?, defaultView: String,
                               clusters: MapData.ClusterIndex? = nil) throws {
        var data = mapData(features, for: path)
        data.clusters = clusters
        try writer.write(try PageRenderer.listPage(title: title, subtitle: subtitle, data: data, links: links(for: path, back: back),
                                                   defaultView: defaultView, credits: credits), to: path)
    }

    /// The cached image copied into the site as `{folder}/{cache file name}.{png|jpg}`; nil when the
    /// image could not be had (the page then shows the placeholder).
    private func copyImage(of photo: Photo, size: PhotoSize, folder: String) throws(PageError) -> String? {
        guard let file = cache.cachedFile(for: photo, size: size),
              let data = FileManager.default.contents(atPath: file.path),
              let format = ImageDecoder.format(of: data)
        else { return nil }
        let path = prefix + "\(folder)/\(file.lastPathComponent).\(format.fileExtension)"
        try writer.write(data, to: path)
        return path
    }

    /// A site path as a link from the page at `page`; http(s) URLs stay as they are.
    private func relative(_ target: String, from page: String) -> String? {
        HTML.webURL(target) ?? SiteWriter.link(from: page, to: target)
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
