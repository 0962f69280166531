import Dispatch
import Foundation

/// Writes map pages and browsable sites from places and photos: assets, squares and medium images
/// from the thumbnail cache, list/map pages and photo pages, with relative links only.
///
/// Every path here is relative to the writer's root. `prefix` is where the site's own folders go:
/// "" for `export` (assets/, squares/, photos/ beside index.html), "paris_files/" for a map page
/// written as paris.html.
public struct SiteBuilder {
    /// Credits shown on every page.
    public static let attribution = "Outlines: Natural Earth (public domain). Tiles when online: © OpenStreetMap contributors. "
        + "Place data: GeoNames (CC BY 4.0). Map: Leaflet."

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
        try writeListPage(at: path, title: title, subtitle: subtitle, features: features, back: back, defaultView: defaultView)
    }

    private func writePhotoPage(_ photo: Photo, annotation: Annotation, square: String?, at path: String,
                                back: (path: String, label: String)) throws {
        let image = try copyImage(of: photo, size: .medium, folder: "images")
        let data = MapData(features: [MapData.Feature(annotation, thumbnail: square.flatMap { relative($0, from: path) }, link: nil)],
                           placeholder: SiteWriter.link(from: path, to: assetsFolder + "/placeholder.svg"))
        let links = PageRenderer.Links(assets: SiteWriter.link(from: path, to: assetsFolder),
                                       back: (SiteWriter.link(from: path, to: back.path), back.label))
        try writer.write(try PageRenderer.photoPage(annotation: annotation, photo: photo, image: image.flatMap { relative($0, from: path) },
                                                    data: data, links: links, attribution: Self.attribution), to: path)
    }

    private func writeListPage(at path: String, title: String, subtitle: String, features: [MapData.Feature],
                               back: (path: String, label: String)?, defaultView: String) throws {
        let data = MapData(features: features, placeholder: SiteWriter.link(from: path, to: assetsFolder + "/placeholder.svg"))
        let links = PageRenderer.Links(assets: SiteWriter.link(from: path, to: assetsFolder),
                                       back: back.map { (SiteWriter.link(from: path, to: $0.path), $0.label) })
        try writer.write(try PageRenderer.listPage(title: title, subtitle: subtitle, data: data, links: links,
                                                   defaultView: defaultView, attribution: Self.attribution), to: path)
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

    /// A site path as a link from the page at `page`; http(s) URLs stay as they are, other URLs go.
    private func relative(_ target: String, from page: String) -> String? {
        target.contains(":") ? HTML.webURL(target) : SiteWriter.link(from: page, to: target)
    }
}
