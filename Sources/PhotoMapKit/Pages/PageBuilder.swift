// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Builds the HTML of photomap's pages from annotated records (each shown by the annotation its
/// listing came with): the features a list or map shows, list pages, photo pages. Where links point
/// is `links`' business; what pages say and how they look is the same whether they are written to
/// disk or served.
public struct PageBuilder<Links: PagePaths> {
    /// Where links point.
    public let links: Links
    /// Who the pages' records come from, credited in each page's footer with Flickr's notice.
    public var credits: PageCredits
    /// Where the embedded catalog's images are mirrored (`--image-host` on the catalog): search
    /// results from the local index name Flickr's host, and are moved here.
    public var catalogMirror: ImageHost?
    /// The places maps name around their annotations when zoomed in past the outline's scale.
    public var placeLabels: PlaceLabels? = .bundled
    /// The imported photos' GPS tracks, drawn under the annotations of every map around them; nil for none
    /// (other sources, blurred locations).
    public var tracks: TrackLines?
    /// The coasts maps draw past the world outline's zooms; nil for none.
    public var coasts: CoastTiles? = .bundled
    /// Whether pages list the coast tiles around their annotations, the only ones a written site holds;
    /// a served page may load any.
    public var listsCoastTiles = true
    /// Whether the pages' headers link the map of everything (`serve` of imported photos).
    public var linksWorldMap = false
    /// Whether the pages' headers link the trips and the places you have been (the imported photos', where
    /// pages of them are served or written).
    public var linksTrips = false
    /// The site path of an export's map of everything (`SiteBuilder.worldMapPath`), which the headers then
    /// link; nil for `serve`'s `/map`.
    public var worldMapPage: String?

    /// A builder linking through `links`.
    public init(links: Links, credits: PageCredits) {
        self.links = links
        self.credits = credits
    }

    /// The same builder linking through `other` (a folder's paths, for pages whose images are placed).
    func linking<Other: PagePaths>(through other: Other) -> PageBuilder<Other> {
        var builder = PageBuilder<Other>(links: other, credits: credits)
        builder.catalogMirror = catalogMirror
        builder.placeLabels = placeLabels
        builder.tracks = tracks
        builder.coasts = coasts
        builder.listsCoastTiles = listsCoastTiles
        builder.linksTrips = linksTrips
        builder.linksWorldMap = linksWorldMap
        builder.worldMapPage = worldMapPage
        return builder
    }

    /// The features of places on the page at `path`, each linking to `link(place)` (a site path or a URL).
    public func features(of places: [AnnotatedPlace], on path: String, link: (Place) -> String?) -> [MapData.Feature] {
        places.map { place in
            MapData.Feature(
                place.annotation, thumbnail: nil,
                link: link(place.record).flatMap { relative($0, from: path) })
        }
    }

    /// A search result's photo, its images on the catalog's mirror when there is one.
    public func photo(of annotation: Annotation) -> Photo {
        let photo = Photo(searchResult: annotation)
        return catalogMirror.map(photo.rehosted(on:)) ?? photo
    }

    /// A page listing `features` at `path`, with a list/map toggle; pre-clustered when `clusters` is
    /// given, centred on `focus` when given (else fitting every annotation); linking `elsewhere` (a site
    /// path) beside its title, and `more` (the page with more of its photos) under it, when given.
    public func listPage(
        at path: String, title: String, subtitle: String, features: [MapData.Feature],
        back: (path: String, label: String)?, elsewhere: (path: String, label: String)? = nil,
        more: (path: String, label: String)? = nil, defaultView: String,
        clusters: MapData.ClusterIndex? = nil, focus: Coordinate? = nil, tiles: MapData.TileIndex? = nil
    ) throws -> String {
        // A pre-clustered page's annotations are in its tiles: its tracks are those around their bounds.
        let corners = (clusters?.bounds ?? []).compactMap {
            $0.count == 2 ? Coordinate(latitude: $0[0], longitude: $0[1]) : nil
        }
        var data = mapData(features, for: path, labels: PlaceLabels.perListPage, around: corners)
        data.clusters = clusters
        data.tiles = tiles
        data.monthStep =
            clusters?.monthStep ?? tiles?.monthStep ?? MonthTaken.step(features.map(\.month))
        data.focus = focus.map { [$0.latitude, $0.longitude] }
        // Nothing to put on a map (imported photos without a location): the list is what there is to see.
        let located = clusters != nil || tiles != nil || features.contains { $0.geometry != nil }
        return try PageRenderer.listPage(
            title: title, subtitle: subtitle, data: data,
            links: pageLinks(for: path, back: back, elsewhere: elsewhere, more: more),
            defaultView: located ? defaultView : "list", credits: credits)
    }

    /// The same page with its square and medium image (site paths) looked up already: it reads nothing
    /// but its arguments and the builder's settings, so pages can be made on several threads at once.
    func photoPage(
        _ entry: AnnotatedPhoto, at path: String, back: (path: String, label: String)?,
        square: String?, medium: String?, trip: (path: String, label: String)? = nil
    ) throws -> String {
        let (photo, annotation) = (entry.record, entry.annotation)
        let data = mapData(
            [
                MapData.Feature(
                    annotation, thumbnail: square.map { relative($0, from: path) },
                    link: nil)
            ],
            for: path, labels: PlaceLabels.perPhotoPage)
        return try PageRenderer.photoPage(
            annotation: annotation, photo: photo,
            image: medium.map { relative($0, from: path) }, data: data,
            links: pageLinks(for: path, back: back, elsewhere: trip), credits: credits)
    }

    /// A site path as the page at `page` links it; http(s) URLs stay as they are.
    func relative(_ target: String, from page: String) -> String {
        HTML.webURL(target) ?? links.link(from: page, to: target)
    }

    /// The data of a page showing `features`, with the places and tracks around them (and `around`).
    func mapData(
        _ features: [MapData.Feature], for path: String, labels limit: Int, around: [Coordinate] = []
    ) -> MapData {
        var data = MapData(
            features: features,
            placeholder: links.link(from: path, to: links.assets + "/placeholder.svg"))
        let located = features.compactMap {
            $0.geometry.flatMap {
                Coordinate(
                    latitude: $0.coordinates[1],
                    longitude: $0.coordinates[0])
            }
        }
        data.labels = placeLabels?.near(located, limit: limit) ?? []
        data.tracks = tracks?.drawing(around: located + around)
        if coasts != nil {
            data.coasts = CoastIndex(
                tiles: listsCoastTiles ? CoastTiles.tiles(around: located).map { $0.map(\.key) } : nil)
        }
        return data
    }

    func pageLinks(
        for path: String, back: (path: String, label: String)?,
        elsewhere: (path: String, label: String)? = nil, more: (path: String, label: String)? = nil
    ) -> PageRenderer.Links {
        var rendered = PageRenderer.Links(
            assets: links.link(from: path, to: links.assets),
            back: back.map { (links.link(from: path, to: $0.path), $0.label) },
            elsewhere: elsewhere.map { (links.link(from: path, to: $0.path), $0.label) },
            servesAPI: links.servesAPI,
            more: more.map { (links.link(from: path, to: $0.path), $0.label) },
            linksWorldMap: linksWorldMap || worldMapPage != nil)
        if let worldMapPage { rendered.worldMap = links.link(from: path, to: worldMapPage) }
        if linksTrips {
            rendered.siteLinks = [
                (links.link(from: path, to: links.tripsIndex), "Trips"),
                (links.link(from: path, to: links.visitedIndex), "Places visited"),
            ]
        }
        return rendered
    }
}

extension PageBuilder: Sendable where Links: Sendable {}

// What shows a photo's images: the links say where each is (placing it first, for a folder).
extension PageBuilder where Links: PageLinks {
    /// The features of photos on the page at `path`: each with its square and a link to its page.
    public func features(of photos: some Collection<AnnotatedPhoto>, on path: String) throws -> [MapData.Feature] {
        try photos.map { try feature(of: $0, on: path) }
    }

    /// The feature of one photo on the page at `path` (a cluster tile's lone photo, made without the others').
    public func feature(of photo: AnnotatedPhoto, on path: String) throws -> MapData.Feature {
        MapData.Feature(
            photo.annotation,
            thumbnail: try links.image(of: photo.record, size: .square).map { relative($0, from: path) },
            link: relative(links.photoPage(photo.record), from: path))
    }

    /// The features of mixed annotations (found locations, search results): photos show their square
    /// and link to their medium image (and, as every photo does, to their page on Flickr).
    public func features(of annotations: [Annotation], on path: String) throws -> [MapData.Feature] {
        try annotations.map { annotation in
            guard annotation.kind == .photo else { return MapData.Feature(annotation, thumbnail: nil, link: nil) }
            let photo = self.photo(of: annotation)
            return MapData.Feature(
                annotation,
                thumbnail: try links.image(of: photo, size: .square)
                    .map { relative($0, from: path) },
                link: try links.image(of: photo, size: .medium).map { relative($0, from: path) })
        }
    }

    /// A photo's page at `path`: its medium image, details and a small map, and a link to `trip` (its
    /// trip's page, as a site path, and the trip's name) when it is one's.
    public func photoPage(
        _ entry: AnnotatedPhoto, at path: String,
        back: (path: String, label: String)?, trip: (path: String, label: String)? = nil
    ) throws -> String {
        try photoPage(
            entry, at: path, back: back, square: links.image(of: entry.record, size: .square),
            medium: links.image(of: entry.record, size: .medium), trip: trip)
    }
}

extension Photo {
    /// A search result's photo: its annotation carries the image URLs, which is all images need.
    public init(searchResult annotation: Annotation) {
        var images: [PhotoSize: ImageReference] = [:]
        images[.square] = annotation.thumbnailURL.map { ImageReference(url: $0) }
        images[.medium] = annotation.imageURL.map { ImageReference(url: $0) }
        self.init(id: annotation.id, title: annotation.title, coordinate: annotation.coordinate, images: images)
    }
}
