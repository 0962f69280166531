// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// Writes map pages and browsable sites from annotated places and photos: assets, squares and medium
/// images from the image store, list/map pages and photo pages, with relative links only. The pages
/// themselves are `PageBuilder`'s, linked through `FolderLinks`.
///
/// Every path here is relative to the writer's root. `prefix` is where the site's own folders go:
/// "" for `export` (assets/, squares/, photos/ beside index.html), "paris_files/" for a map page
/// written as paris.html.
public struct SiteBuilder {
    let writer: SiteWriter
    let assets: PageAssets
    let links: FolderLinks
    var pages: PageBuilder<FolderLinks>
    /// The assets' digest: every page loads them, so a changed asset makes every page again.
    private let assetsVersion: String
    /// How pages are rendered (`TemplateFingerprint`); pages made by another template are made again.
    public var templateFingerprint = TemplateFingerprint.value

    /// A builder writing through `writer`, its own folders under `prefix`, images placed from `images`.
    public init(writer: SiteWriter, assets: PageAssets, images: any ImageStore, prefix: String) {
        self.writer = writer
        self.assets = assets
        links = FolderLinks(writer: writer, images: images, prefix: prefix)
        pages = PageBuilder(links: links, credits: PageCredits([.catalog]))
        assetsVersion = assets.version
    }

    /// Who the pages' records come from, credited in each page's footer with Flickr's notice.
    public var credits: PageCredits {
        get { pages.credits }
        set { pages.credits = newValue }
    }

    /// The places maps name (`PageBuilder.placeLabels`): the embedded gazetteer's cities.
    public var placeLabels: PlaceLabels? {
        get { pages.placeLabels }
        set { pages.placeLabels = newValue }
    }

    /// The GPS tracks maps draw under the imported photos (`PageBuilder.tracks`).
    public var tracks: TrackLines? {
        get { pages.tracks }
        set { pages.tracks = newValue }
    }

    /// The coasts maps draw past the world outline's zooms (`PageBuilder.coasts`).
    public var coasts: CoastTiles? {
        get { pages.coasts }
        set { pages.coasts = newValue }
    }

    /// Where the embedded catalog's images are mirrored (`PageBuilder.catalogMirror`).
    public var catalogMirror: ImageHost? {
        get { pages.catalogMirror }
        set { pages.catalogMirror = newValue }
    }

    /// Whether the pages' headers link the trips and the places you have been (`PageBuilder.linksTrips`).
    public var linksTrips: Bool {
        get { pages.linksTrips }
        set { pages.linksTrips = newValue }
    }

    /// Each trip photo's trip page (a site path) and name, linked from the photo's page (`writeTrips`).
    public var tripLinks: [String: (path: String, label: String)] = [:]

    /// Above this many located annotations a page is clustered ahead of time: markercluster copes with
    /// ~10,000–50,000 markers (its README), and tiles of pre-made clusters with any number.
    public var clusterThreshold = 20_000
    /// How many entries a pre-clustered page holds, and each of its list files (`lists/{page}/{n}.js`)
    /// after it: the pager loads a file when it reaches its entries. A multiple of
    /// `PageRenderer.listPageSize`, so that a page of the list comes from one file.
    public static let listChunk = 10 * PageRenderer.listPageSize
    /// How many photo pages are made at once: enough to keep both cores busy, few enough that the
    /// batch's pages in memory stay a few megabytes.
    static let pageBatch = 256

    /// Copies the assets (only what changed).
    public func writeAssets() throws(PageError) {
        try assets.copy(into: writer, folder: links.assets)
    }

    /// The photos whose square or medium image the site does not hold yet: the ones to prefetch.
    public func photosWithoutImages(_ photos: some Collection<Photo>) -> [Photo] {
        writer.expectImages(photos.count * 2)
        let jobs = links.imageJobs(of: photos, sizes: [.square, .medium]).compactMap { $0 }
        var missing: [Photo] = []
        for (job, path) in zip(jobs, writer.placedImages(jobs)) where path == nil && missing.last?.id != job.photo.id {
            missing.append(job.photo)
        }
        return missing
    }

    /// Places the photos' squares and medium images from the store in the site (those it holds), the
    /// store's lookups and the links made on every core.
    public func placeImages(of photos: some Sequence<Photo>) throws {
        try links.placeImages(of: photos, sizes: [.square, .medium])
    }

    /// The path of a place's photos page.
    public func placePagePath(_ place: Place) -> String { links.placePage(place) }

    /// Writes a page listing places at `path`; each place links to `link(place)` (a site path or a URL).
    /// Like every page of a site, it is written only when what it is made from changed.
    public func writePlacesPage(
        at path: String, title: String, subtitle: String, places: [AnnotatedPlace],
        back: (path: String, label: String)?, defaultView: String,
        link: (Place) -> String?
    ) throws {
        let inputs = pageInputs(path, title: title, subtitle: subtitle, back: back, defaultView: defaultView)
        for place in places {
            place.record.addFields(to: inputs)
            inputs.add(link(place.record))
        }
        try writeCoastTiles(around: places.compactMap(\.annotation.coordinate))
        try writer.writePage(path, inputs: inputs) {
            try pages.listPage(
                at: path, title: title, subtitle: subtitle,
                features: pages.features(of: places, on: path, link: link),
                back: back, defaultView: defaultView)
        }
    }

    /// Writes the coast tiles of every level around `coordinates` (`CoastTiles.tiles`) that this run has
    /// not written yet, under the assets' `coasts/` folder where the pages' basemap script looks; tiles are
    /// made on every core, and only when the coasts changed.
    private func writeCoastTiles(around coordinates: [Coordinate]) throws {
        guard let coasts = pages.coasts else { return }
        let version = coasts.version
        var jobs: [SiteWriter.PageJob] = []
        for (level, tiles) in CoastTiles.tiles(around: coordinates).enumerated() {
            for tile in tiles {
                let path = "\(links.assets)/coasts/\(tile.path(level: level))"
                guard !writer.wroteThisRun(path) else { continue }
                let inputs = InputDigest(path)
                inputs.add(digest: version)
                jobs.append(
                    SiteWriter.PageJob(path: path, inputs: inputs) {
                        coasts.script(level: level, x: tile.x, y: tile.y) ?? ""
                    })
                if jobs.count == Self.pageBatch {
                    try writer.writePages(jobs)
                    jobs.removeAll()
                }
            }
        }
        try writer.writePages(jobs)
    }

    /// Writes a page for each photo, then the page listing them at `path` (so that a page exists
    /// before any page links to it); squares and medium images are placed from the store (already
    /// prefetched, ideally). Pages whose records, images and templates did not change are skipped
    /// unread: editing one photo's title rewrites its page and the lists that show it, nothing else.
    /// A pre-clustered page's list files are pages of their own in that sense: each is made from its
    /// entries, so an edited title rewrites the one file that lists it.
    public func writePhotosPage(
        at path: String, title: String, subtitle: String, photos: [AnnotatedPhoto],
        back: (path: String, label: String)?, defaultView: String
    ) throws {
        let shared = sharedInputs()
        let listInputs = pageInputs(
            path, title: title, subtitle: subtitle, back: back, defaultView: defaultView,
            shared: shared)
        let located = photos.indices.filter { photos[$0].annotation.coordinate != nil }
        try writeCoastTiles(around: located.compactMap { photos[$0].annotation.coordinate })
        let clustered = located.count > clusterThreshold
        let lists = clustered ? folder("lists", of: path) : ""
        // The list file n's inputs, for n from 1 (the page holds the entries of 0): its place, its page's.
        let chunkInputs = stride(from: Self.listChunk, to: clustered ? photos.count : 0, by: Self.listChunk).map {
            let inputs = pageInputs(
                "\(lists)/\($0 / Self.listChunk).js", title: "", subtitle: "", back: nil,
                defaultView: "", shared: shared)
            inputs.add(path)
            return inputs
        }
        // Each photo's digest, 32 bytes after another (made on every core): a cluster tile is made from those
        // of the photos it shows.
        let digests = [[UInt8]](count: photos.count, madeOnEveryCore: { photos[$0].record.inputDigest })
            .flatMap { $0 }
        // Photo pages go to the writer a batch at a time, made on every core (`SiteWriter.writePages`).
        var batch: [SiteWriter.PageJob] = []
        var batched = Set<String>()
        // Their images are placed before they are rendered: the renders need only the folder's paths.
        let photoPages = pages.linking(through: links.paths)
        func writeBatch() throws {
            try writer.writePages(batch)
            batch.removeAll(keepingCapacity: true)
            batched.removeAll(keepingCapacity: true)
        }
        for (index, entry) in photos.enumerated() {
            let photo = entry.record
            let digest = digests[index * 32..<index * 32 + 32]
            let square = try links.image(of: photo, size: .square)
            let pagePath = links.photoPage(photo)
            // A photo several places list has one page, written once, going back to the first of them.
            if !writer.wroteThisRun(pagePath), batched.insert(pagePath).inserted {
                let inputs = pageInputs(
                    pagePath, title: "", subtitle: "", back: (path, title), defaultView: "",
                    shared: shared)
                let medium = try links.image(of: photo, size: .medium)
                let trip = tripLinks[photo.id]
                inputs.add(digest: digest)
                for text in [square, medium, trip?.path, trip?.label] { inputs.add(text) }
                batch.append(
                    SiteWriter.PageJob(path: pagePath, inputs: inputs) {
                        try photoPages.photoPage(
                            entry, at: pagePath, back: (path, title), square: square, medium: medium, trip: trip)
                    })
                if batch.count == Self.pageBatch { try writeBatch() }
            }
            listInputs.add(digest: digest)
            listInputs.add(square)
            if clustered, index >= Self.listChunk {
                let inputs = chunkInputs[index / Self.listChunk - 1]
                inputs.add(digest: digest)
                inputs.add(square)
            }
        }
        try writeBatch()
        for (offset, inputs) in chunkInputs.enumerated() {
            let number = offset + 1, start = number * Self.listChunk
            try writer.writePage("\(lists)/\(number).js", inputs: inputs) {
                let entries = photos[start..<min(start + Self.listChunk, photos.count)]
                return PageEntries.chunkScript(number, try pages.features(of: Array(entries), on: path))
            }
        }
        let rendered = try writer.writePage(path, inputs: listInputs) {
            guard clustered else {
                return try pages.listPage(
                    at: path, title: title, subtitle: subtitle,
                    features: pages.features(of: photos, on: path), back: back,
                    defaultView: defaultView)
            }
            let clusters = try writeClusterTiles(
                of: photos, located: located, digests: digests, page: path,
                lists: lists, shared: shared)
            return try pages.listPage(
                at: path, title: title, subtitle: subtitle,
                features: pages.features(of: photos.prefix(Self.listChunk), on: path),
                back: back, defaultView: defaultView, clusters: clusters)
        }
        // An unchanged clustered page keeps its tiles as they are, unlooked at.
        if clustered && !rendered { writer.manifest.keep(under: folder("clusters", of: path) + "/") }
    }

    /// The folder of a pre-clustered page's files of `kind` ("clusters", "lists"): `{kind}/{page's name}`.
    private func folder(_ kind: String, of page: String) -> String {
        links.prefix + kind + "/" + URL(fileURLWithPath: page).deletingPathExtension().lastPathComponent
    }

    /// The digest of what every page of the site shares: templates, assets, credits, image mirror, clustering,
    /// the places maps name. (Image hosts show in the image names a page links, which each page's inputs hold.)
    func sharedInputs() -> [UInt8] {
        let inputs = InputDigest(templateFingerprint, assetsVersion, links.prefix)
        inputs.add(catalogMirror?.base)
        inputs.add(pages.placeLabels == nil ? 0 : 1)
        inputs.add(digest: pages.placeLabels?.version ?? [])
        inputs.add(digest: pages.tracks?.digest ?? [])
        inputs.add(digest: pages.coasts?.version ?? [])
        inputs.add(pages.linksTrips ? 1 : 0)
        for line in pages.credits.lines { inputs.add(line) }
        inputs.add(clusterThreshold)
        inputs.add(Self.listChunk)
        inputs.add(pages.worldMapPage)
        return inputs.finishDigest()
    }

    /// A page's inputs: what every page shares (`shared`, else computed), then its own place and headings.
    func pageInputs(
        _ path: String, title: String, subtitle: String, back: (path: String, label: String)?,
        defaultView: String, shared: [UInt8]? = nil
    ) -> InputDigest {
        let inputs = InputDigest()
        inputs.add(digest: shared ?? sharedInputs())
        for text in [path, title, subtitle, defaultView] { inputs.add(text) }
        inputs.add(back?.path)
        inputs.add(back?.label)
        return inputs
    }

    /// Writes the page's pre-made clusters as `clusters/{page}/{z}/{x}/{y}.js` files, each calling
    /// `photomapTile(z, x, y, [[lat, lon, count, properties or null], …])`; the index names them and the
    /// page's list files in `lists`. A tile is made from its clusters and the records of the photos standing
    /// alone in it (`digests`, 32 bytes a photo): a changed title makes again only the tiles that show that
    /// photo, and the features of the others are never built.
    private func writeClusterTiles(
        of photos: [AnnotatedPhoto], located: [Int], digests: [UInt8], page: String,
        lists: String, shared: [UInt8]
    ) throws -> MapData.ClusterIndex {
        let folder = self.folder("clusters", of: page)
        let clusterer = GridClusterer()
        let points = located.compactMap { index in photos[index].annotation.coordinate.map { (index, $0) } }
        var tiles: [String: [String]] = [:]
        // Counted by the timeline's step: a page over many years needs no month of each.
        let exact = photos.map { MonthTaken.index($0.annotation.dateTaken) }
        let step = MonthTaken.step(exact)
        let months = exact.map { MonthTaken.stepStart($0, step: step) }
        for zoom in 0...clusterer.maximumZoom {
            let byTile = clusterer.clusters(of: points, zoom: zoom, months: months)
            tiles[String(zoom)] = byTile.keys.sorted()
            for (tile, clusters) in byTile {
                let tilePath = "\(folder)/\(zoom)/\(tile).js"
                let inputs = InputDigest(tilePath, page)
                inputs.add(digest: shared)
                for cluster in clusters {
                    inputs.add(Int(truncatingIfNeeded: cluster.latitude.bitPattern))
                    inputs.add(Int(truncatingIfNeeded: cluster.longitude.bitPattern))
                    inputs.add(cluster.count)
                    for number in cluster.months + [-1] + cluster.members { inputs.add(number) }
                    if let index = cluster.feature {
                        inputs.add(digest: digests[index * 32..<index * 32 + 32])
                        inputs.add(try links.image(of: photos[index].record, size: .square))
                    }
                }
                try writer.writePage(tilePath, inputs: inputs) {
                    // Links inside a tile are made relative to the page that loads it, not to the tile file.
                    let items = try clusters.map { cluster in
                        TileItem(
                            latitude: cluster.latitude, longitude: cluster.longitude, count: cluster.count,
                            months: cluster.months, members: cluster.members,
                            properties: try cluster.feature.map { try pages.feature(of: photos[$0], on: page) }?
                                .properties)
                    }
                    return TileItem.script(zoom: zoom, tile: tile, items)
                }
            }
        }
        let latitudes = points.map(\.1.latitude), longitudes = points.map(\.1.longitude)
        var index = MapData.ClusterIndex(
            folder: SiteWriter.link(from: page, to: folder),
            lists: SiteWriter.link(from: page, to: lists), listChunk: Self.listChunk,
            maxZoom: clusterer.maximumZoom, tiles: tiles,
            bounds: [
                [latitudes.min() ?? 0, longitudes.min() ?? 0],
                [latitudes.max() ?? 0, longitudes.max() ?? 0],
            ],
            total: photos.count)
        index.monthStep = step
        index.months = MonthTaken.histogram(months)
        index.listMonths = stride(from: 0, to: photos.count, by: Self.listChunk).map {
            MonthTaken.histogram(months[$0..<min($0 + Self.listChunk, photos.count)])
        }
        return index
    }

    /// Writes a map page of mixed annotations (found locations, search results); the first view fits
    /// them all, or centres on `focus`.
    public func writeAnnotationsPage(
        at path: String, title: String, subtitle: String, annotations: [Annotation],
        focus: Coordinate?
    ) throws {
        try writeCoastTiles(around: annotations.compactMap(\.coordinate))
        try writer.write(
            try pages.listPage(
                at: path, title: title, subtitle: subtitle,
                features: pages.features(of: annotations, on: path),
                back: nil, defaultView: "map", focus: focus), to: path)
    }
}

/// One entry of a cluster tile, encoded as `[lat, lon, count, properties or null]`, then its photos by
/// month (`[month, count, …]`) when any has a date or it names its photos, then the indices of its
/// photos in the page when it names them (`GridClusterer.mostMembers`).
struct TileItem: Encodable {
    let latitude: Double, longitude: Double, count: Int
    var months: [Int] = []
    var members: [Int] = []
    let properties: MapData.Feature.Properties?

    /// A tile's script: `photomapTile(z, x, y, [items])`, for the tile "x/y" of `zoom`; its JSON the same
    /// bytes as `HTML.scriptJSON(items)`, written directly (`ScriptJSON`).
    static func script(zoom: Int, tile: String, _ items: [TileItem]) -> String {
        let xy = tile.split(separator: "/")
        var json = ScriptJSON(capacity: items.count * 64)
        json.array(items) { json, item in
            json.raw("[")
            json.number((item.latitude * 1e6).rounded() / 1e6)
            json.raw(",")
            json.number((item.longitude * 1e6).rounded() / 1e6)
            json.raw(",")
            json.number(item.count)
            json.raw(",")
            if let properties = item.properties { properties.write(to: &json) } else { json.raw("null") }
            if !item.months.isEmpty || !item.members.isEmpty {
                json.raw(",")
                json.array(item.months) { $0.number($1) }
            }
            if !item.members.isEmpty {
                json.raw(",")
                json.array(item.members) { $0.number($1) }
            }
            json.raw("]")
        }
        return "photomapTile(\(zoom), \(xy.first ?? ""), \(xy.last ?? ""), \(json.text));\n"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode((latitude * 1e6).rounded() / 1e6)
        try container.encode((longitude * 1e6).rounded() / 1e6)
        try container.encode(count)
        try container.encode(properties)
        if !months.isEmpty || !members.isEmpty { try container.encode(months) }
        if !members.isEmpty { try container.encode(members) }
    }
}
