// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `photomap photos --place ID`: the photos taken in a place.
enum PhotosCommand {
    static let spec = CommandSpec(
        name: "photos",
        summary: "list the photos taken in a place (flickr.photos.search)",
        discussion: """
            Lists up to N photos taken in the place (its id is in `photomap places`): title, the first words
            of the description, date taken (blank when Flickr does not know it) and coordinate. Photos without
            geo are listed with no coordinate; videos are left out.
            """,
        options: [placeOption.spec, limitOption.spec] + AnnotationOutput.options + [
            prefetchFlag.spec, withPathsOption.spec, MapOutput.option.spec, FencesCommand.showFencedOption.spec,
        ],
        examples: [
            .init("photos --place hS4wMLD0wPIXPXB", "Paris's photos, as a table (ids from `photomap places`)"),
            .init("photos --place hS4wMLD0wPIXPXB --map paris.html", "a map page; open paris.html in a browser"),
            .init("photos --place hS4wMLD0wPIXPXB --format kml --output paris.kml", "KML Placemarks for Google Earth"),
        ])

    static let placeOption = Option<String>.placeID(
        "place", "the place's id, from `photomap places`", required: true)
    static let prefetchFlag = Flag("prefetch", "fetch the listed photos' 75×75 squares into the thumbnail cache now")

    /// What `photos` was asked, decoded once.
    struct Options: CommandOptions {
        var placeID: String
        var destination: AnnotationOutput.Destination
        /// `--map`: the page's file, if asked for.
        var map: URL?
        /// How many photos to list: --limit, else all of them on a map page of photos on this machine,
        /// else a screenful.
        var limit: Int
        var prefetch, withPaths: Bool

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            placeID = try parsed.value(placeOption) ?? ""
            destination = try AnnotationOutput.destination(parsed)
            map = try MapOutput.file(parsed, defaultName: "photomap-photos-\(HTML.fileName(for: placeID)).html")
            limit =
                try parsed.value(limitOption)
                ?? (map != nil && global.source != .flickr ? FixtureSource.maximumResults : defaultLimit)
            (prefetch, withPaths) = (parsed.has(prefetchFlag), parsed.has(withPathsOption))
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        let (placeID, destination, map, limit) = (options.placeID, options.destination, options.map, options.limit)
        let source = try configuration.makeSource(console: console)
        // One thumbnail cache for the prefetch and the page, made only when one of them is asked for.
        let cache = options.prefetch || map != nil ? try configuration.makeThumbnailCache(console: console) : nil
        // Each page's images are fetched while the next page is asked for, once: the squares, and for a
        // map page its medium images too (the page is then made from the cache).
        let prefetcher = cache.map { cache in
            map == nil
                ? Prefetcher(cache: cache, console: console) : Prefetcher.pageImages(cache: cache, console: console)
        }
        let listing: Listing<Photo>
        // The listing is written while the squares are still coming, unless it goes to the terminal, where
        // the table follows the progress bar. On a failure, what was listed is fetched and kept all the same.
        let writesFirst = destination.file != nil || console.width == nil
        do {
            listing = try source.photos(inPlace: placeID, limit: limit) { arriving in
                prefetcher?.add(arriving.lazy.map(\.record))
            }
            if writesFirst {
                try write(
                    listing, to: destination, placeID: placeID, configuration: configuration,
                    console: console, withPaths: options.withPaths)
            }
        } catch {
            _ = try? prefetcher?.wait()
            throw error
        }
        let photos = listing.items
        // The squares' report decides whether nothing could be fetched.
        let prefetched = try prefetcher?.wait().first
        if !writesFirst {
            try write(
                listing, to: destination, placeID: placeID, configuration: configuration,
                console: console, withPaths: options.withPaths)
        }
        if options.prefetch { try Prefetcher.check(prefetched) }
        if let cache, let file = map {
            let (builder, writer) = try MapOutput.builder(for: file, images: cache, configuration: configuration)
            try builder.writeAssets()
            let place = placeName(placeID, from: source, configuration: configuration, console: console)
            let total = listing.total(askedFor: limit)
            try builder.writePhotosPage(
                at: file.lastPathComponent, title: place?.title ?? "Photos of \(placeID)",
                subtitle: PageSubtitle.photos(shown: photos.count, total: total, detail: place?.subtitle),
                photos: listing.entries, back: nil, defaultView: "map")
            MapOutput.report(file, writer: writer, console: console)
            if let total, total > photos.count {
                console.warn(
                    "the page shows \(photos.count) of the place's \(Quantity.groupedWords(total, "photo", "photos")): "
                        + "--limit N shows up to N"
                        + (configuration.options.source == .flickr
                            ? " (Flickr gives at most \(Quantity.grouped(FlickrSource.maximumResults)))" : ""))
            }
        }
    }

    /// `--with-paths`: imported photos' files are named only when asked.
    static let withPathsOption = Flag(
        "with-paths", "with --source local, add each photo's file (a `path` field) to --json and --format output")

    /// Writes the photos of a place as `write` does, titled and counted.
    private static func write(
        _ listing: Listing<Photo>, to destination: AnnotationOutput.Destination, placeID: String,
        configuration: Services, console: Console, withPaths: Bool
    ) throws {
        var paths: [String: String]?
        if withPaths, configuration.options.source == .local, let catalog = try configuration.state().importedPhotos() {
            paths = try Dictionary(
                listing.items.map { ($0.id, try catalog.paths(ofPhoto: $0.id).first ?? "") },
                uniquingKeysWith: { first, _ in first })
        }
        try write(
            listing, to: destination, title: "Photos of \(placeID)", configuration: configuration, console: console,
            footer: "\(listing.entries.count)\(listing.total.map { " of \($0)" } ?? "") "
                + ((listing.total ?? listing.entries.count) == 1 ? "photo" : "photos"), paths: paths)
    }

    /// The place's annotation, to title its page, when the source tells about places (flickr.places.getInfo);
    /// a failure costs the page its name only, with a warning.
    static func placeName(
        _ placeID: String, from source: any PhotoSource, configuration: Services,
        console: Console
    ) -> Annotation? {
        guard let places = source as? any PlaceDescribing else { return nil }
        do {
            return configuration.adapter.annotation(for: try places.placeInfo(placeID))
        } catch {
            console.warn("the page is not titled with the place's name: \(error)")
            return nil
        }
    }

    /// Writes photos as `photos` does, by the annotations the listing came with: warnings for skipped
    /// records, then a table (id, title, description, date taken, coordinate) or an open format, to the
    /// terminal or a file.
    /// `paths` (photo id → file) adds each photo's file as a `path` field; `withSources`, each imported
    /// photo's `locationSource` whatever the source.
    static func write(
        _ listing: Listing<Photo>, to destination: AnnotationOutput.Destination, title: String,
        configuration: Services, console: Console, footer: String,
        paths: [String: String]? = nil, withSources: Bool = false
    ) throws {
        for line in listing.skipped { console.warn("skipped \(line)") }
        let annotations = listing.entries.map(\.annotation)
        // Imported photos say where their location came from ("exif", "track"; null without one).
        let sources: [String: LocationSource?]? =
            configuration.options.source == .local || withSources
            ? Dictionary(listing.items.map { ($0.id, $0.locationSource) }, uniquingKeysWith: { first, _ in first })
            : nil
        let records = annotations.map { annotation in
            var extras: [OutputRecord.Field] = []
            if let sources {
                extras.append(
                    .init("locationSource", (sources[annotation.id] ?? nil).map { .text($0.rawValue) } ?? .null))
            }
            if let paths { extras.append(.init("path", .text(paths[annotation.id] ?? ""))) }
            return OutputRecord(annotation, extras: extras)
        }
        try AnnotationOutput.write(
            records, to: destination, title: title,
            extraFields: (sources == nil ? [] : ["locationSource"]) + (paths == nil ? [] : ["path"]),
            configuration: configuration, console: console
        ) { width in
            AnnotationOutput.table(
                annotations,
                columns: [
                    .init(heading: "PHOTO ID"), .init(heading: "TITLE", flexible: true),
                    .init(heading: "DESCRIPTION", flexible: true), .init(heading: "TAKEN"),
                ],
                width: width, footer: footer
            ) {
                [$0.id, $0.title, $0.subtitle, String(($0.dateTaken ?? "").prefix(10))]
            }
        }
    }

    /// `--limit N`.
    static let limitOption = Option<Int>.integer(
        "limit", "N", 1...FixtureSource.maximumResults,
        "at most N photos (default \(defaultLimit); with --map, all of them from the embedded catalog and "
            + "imported photos; Flickr gives at most \(Quantity.grouped(FlickrSource.maximumResults)))")
    /// How many photos `photos` lists unless told (a map page of photos on this machine shows them all).
    static let defaultLimit = 100
}
