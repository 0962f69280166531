// SPDX-License-Identifier: Apache-2.0
import CSystem
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `photomap export --out DIR`: a browsable static site of the top places and their photos.
enum ExportCommand {
    static let spec = CommandSpec(
        name: "export",
        summary: "write a browsable static site: places, their photos, photo pages, maps",
        discussion: """
            Writes DIR/index.html (the top places, on a map; the list a click away), one page per place
            listing its photos (list or map; every photo of the embedded catalog and imported photos, 100
            from Flickr unless --limit), and one page per photo (medium image, description, owner, licence,
            date, small map, link to its page on Flickr), for imported photos (--source local) DIR/map.html,
            every photo on one map as serve's /map shows it (its clusters in pre-made tile files), with the
            squares and images from the thumbnail
            cache (hard links to the cache's files when both are on one file system, copies otherwise:
            clearing the cache never takes them from the site). Links are relative: open DIR/index.html from disk or serve DIR with
            any web server. Running it again renders and rewrites only what changed (DIR/.photomap-manifest
            records what each page was made from); an export stopped midway leaves the previous pages whole,
            and the next run finishes the job. With Flickr, calls are paced under Flickr's limit of 3,600 an hour
            per key; a large export says how long that adds. A folder that holds other files and no
            photomap site is refused (nothing written) unless --force; --dry-run lists the places and photos
            and says what the site would be, writing nothing.
            """,
        options: [
            outOption.spec, limitOption.spec, placesOption.spec, blurOption.spec, audienceOption.spec, forceFlag.spec,
            dryRunFlag.spec,
        ],
        examples: [
            .init("export --out site/", "every place and photo: open site/index.html from disk"),
            .init("export --out site/ --places 10 --limit 50", "the first 10 places, 50 photos each"),
            .init("--source local export --out site/ --blur-locations 2", "your photos, every spot on a 2 km grid"),
        ])

    /// `--out DIR`, kept as typed: messages name the folder as the user wrote it.
    static let outOption = Option<String>.path("out", .directory("DIR"), "the site's folder", required: true)
    static let forceFlag = Flag(
        "force", "write into DIR even when it holds files and is not a photomap site (same names are overwritten)")
    static let dryRunFlag = Flag("dry-run", "list the places and photos, say what would be written, and write nothing")

    /// Whose view of the imported photos a site shows.
    enum Viewers: String, CaseIterable, Sendable {
        case `public`, friends, family
        case friendsAndFamily = "friends+family"
        case owner

        /// The audiences these viewers see.
        var audiences: Set<Audience> {
            switch self {
            case .friends: Audience.seen(by: .friend)
            case .family: Audience.seen(by: .family)
            case .friendsAndFamily: Audience.seen(by: .friendAndFamily)
            case .owner: Audience.seen(by: .owner)
            case .public: Audience.seen(by: nil)
            }
        }
    }

    /// `--audience WHO`: whose view of the imported photos the site shows.
    static let audienceOption = Option<Viewers>.choice(
        "audience",
        "whose view of your imported photos to write: public (the default) shows what everyone may see; "
            + "owner, everything, tracks included",
        default: .public)

    /// `--blur-locations KM`.
    static let blurOption = Option<Double>.number(
        "blur-locations", "KM", 0.01...1_000,
        "show every place and photo at the centre of its cell in a grid of KM kilometres (your own photos' "
            + "exact spots stay off the site)")

    /// `--limit N`.
    static let limitOption = Option<Int>.integer(
        "limit", "N", 1...FixtureSource.maximumResults,
        "at most N photos per place (default: all of them from the embedded catalog and imported photos; "
            + "\(defaultFlickrLimit) from Flickr, which gives at most \(Quantity.grouped(FlickrSource.maximumResults)))"
    )
    /// How many photos of each place an export asks Flickr for unless told: each 250 cost a call.
    static let defaultFlickrLimit = 100

    /// `--places N`.
    static let placesOption = Option<Int>.integer("places", "N", 1...Int.max, "only the first N places (default: all)")

    /// What `export` was asked, decoded once.
    struct Options: CommandOptions {
        /// The site's folder, as typed.
        var out: String
        var viewers: Viewers
        /// The photos per place: `--limit`, else every one from a source on this machine, else
        /// `defaultFlickrLimit`.
        var limit: Int
        /// `--places`: only the first N, if given.
        var placeCount: Int?
        var blur: LocationBlur?
        var force, dryRun: Bool

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            guard let out = try parsed.value(outOption) else { throw UsageError("export needs --out DIR") }
            self.out = out
            viewers = try parsed.value(audienceOption) ?? .public
            limit =
                try parsed.value(limitOption)
                ?? (global.source == .flickr ? defaultFlickrLimit : FixtureSource.maximumResults)
            placeCount = try parsed.value(placesOption)
            blur = try parsed.value(blurOption).map(LocationBlur.init(kilometres:))
            (force, dryRun) = (parsed.has(forceFlag), parsed.has(dryRunFlag))
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        // Fixed thresholds: glibc raises both as large blocks are freed (up to 32 MB and 64 MB), after which
        // each thread's arena keeps its freed blocks to the end of an export. One arena for every thread
        // would keep less, but threads would queue on its lock.
        mallopt(M_MMAP_THRESHOLD, 256 << 10)
        mallopt(M_TRIM_THRESHOLD, 1 << 20)
        // The site is for others: what everyone may see, unless --audience asks for more.
        var configuration = configuration
        configuration.audiences = options.viewers.audiences
        if options.viewers != .public, configuration.options.source == .local {
            let who = options.viewers == .owner ? "only you" : options.viewers.rawValue
            console.warn(
                "exporting what \(who) may see: photos and locations "
                    + "that are not public are in this site; share it with them only")
        }
        let out = options.out
        let dryRun = options.dryRun
        let folder = try siteFolder(out, force: options.force)
        let limit = options.limit
        let placeCount = options.placeCount
        let source = try configuration.makeSource(console: console)
        let blur = options.blur
        var places = Array(try source.topPlaces().entries.prefix(placeCount ?? .max))
        if let blur { places = places.map(blur.blurred) }
        warnOfPacing(places: places.count, limit: limit, configuration: configuration, console: console)
        // The site is opened once the first place is listed (its manifest is not held beside a listing
        // being read). What a page links to is written before it (images, assets, photo pages, place pages,
        // the index), each file whole, the manifest last: an export stopped at any moment leaves pages
        // that are whole, old or new, and a rerun finishes the job.
        var site: (writer: SiteWriter, builder: SiteBuilder, images: SiteImageBatches)?
        func openSite() throws -> (writer: SiteWriter, builder: SiteBuilder, images: SiteImageBatches) {
            if let site { return site }
            let writer = SiteWriter(root: URL(fileURLWithPath: out), keepsManifest: true)
            let cache = try configuration.makeThumbnailCache(console: console)
            var builder = try MapOutput.siteBuilder(
                writer: writer, prefix: "", images: cache,
                configuration: configuration)
            // Blurred, a site shows no track: a track is where the photos were, exactly.
            if blur != nil { builder.tracks = nil }
            try writer.begin()
            // Images the site holds already are not looked for in the cache (which may have evicted them);
            // the others are fetched while the next places are listed, and placed a batch at a time.
            let opened = (
                writer, builder,
                SiteImageBatches(
                    builder: builder, cache: cache, console: console,
                    batch: configuration.options.cacheLimitBytes / imageBytesPerPhoto)
            )
            site = opened
            return opened
        }
        var photosByPlace: [(place: AnnotatedPlace, photos: [AnnotatedPhoto], total: Int?)] = []
        let bar = ProgressBar(console: console, label: "listing places")
        for (index, place) in places.enumerated() {
            let listing = try source.photos(inPlace: place.record.id, limit: limit)
            for line in listing.skipped { console.warn("skipped \(line)") }
            photosByPlace.append(
                (place, blur.map { listing.entries.map($0.blurred) } ?? listing.entries, listing.total(askedFor: limit))
            )
            bar.update(done: index + 1, total: places.count)
            if !dryRun { try openSite().images.add(listing.entries) }
        }
        bar.finish()
        if dryRun {
            let photoCount = photosByPlace.reduce(0) { $0 + $1.1.count }
            return console.print(
                "would export \(Quantity.groupedWords(places.count, "place", "places")) and "
                    + "\(Quantity.groupedWords(photoCount, "photo", "photos")) to \(out)/index.html (\(folder)); "
                    + "nothing written (--dry-run)")
        }
        var (writer, builder, images) = try openSite()
        try images.placeFetched()
        // The map of everything, for imported photos; not on a blurred site, whose clusters would be exact.
        let tiling = blur == nil ? source as? any MapTiling : nil
        if tiling != nil { builder.worldMapPage = SiteBuilder.worldMapPath }
        // The imported photos' trips, with each trip photo's page linking to its trip; not on a blurred
        // site, whose trips' ways would show where the photos were.
        let album = blur == nil ? try (source as? any TripDescribing)?.tripAlbum() : nil
        if let album {
            builder.tripLinks = builder.tripLinks(of: album)
            // Every page's header links the trips and the places you have been, both written below.
            builder.linksTrips = true
        }
        // Counted, not gathered: a second array of every photo would hold 100,000 more records.
        let photoCount = photosByPlace.reduce(0) { $0 + $1.photos.count }
        let heldCount = photosByPlace.reduce(0) { $0 + max($1.total ?? 0, $1.photos.count) }
        try builder.writeAssets()
        for (place, photos, total) in photosByPlace {
            let annotation = place.annotation
            try builder.writePhotosPage(
                at: builder.placePagePath(place.record), title: annotation.title,
                subtitle: PageSubtitle.photos(shown: photos.count, total: total, detail: annotation.subtitle),
                photos: photos, back: ("index.html", "Top places"), defaultView: "list")
        }
        let subtitle = PageSubtitle.joined([
            Quantity.words(places.count, "place", "places"),
            PageSubtitle.count(shown: photoCount, total: heldCount, one: "photo", many: "photos"),
        ])
        // The index opens on its map, as every `--map` page does; the list is a click away (and remembered).
        try builder.writePlacesPage(
            at: "index.html", title: "Top places", subtitle: subtitle,
            places: places, back: nil, defaultView: "map"
        ) { builder.placePagePath($0) }
        if let tiling {
            let map = try builder.writeWorldMap(
                tiling, photos: photosByPlace.lazy.flatMap(\.photos), back: ("index.html", "Top places"))
            console.note(
                "map of everything: \(SiteBuilder.worldMapPath), clusters made to zoom \(map.lastZoom) "
                    + "(\(Quantity.groupedWords(map.tiles, "tile", "tiles")), "
                    + "\(Quantity.groupedWords(map.clusters, "cluster", "clusters")))")
        }
        if let album {
            try builder.writeTrips(album, back: ("index.html", "Top places"), photoPages: false)
        }
        // The places the site's photos were taken in, as its viewer sees them (not blurred, as trips).
        if let album, let source = source as? any TripDescribing {
            try builder.writeVisited(
                try source.visitedPlaces(), outlines: VisitedOutlines.bundled, shown: album.shown,
                placePages: Set(places.map(\.record.id)), limit: limit,
                back: ("index.html", "Top places"))
        }
        try writer.commit()
        console.note(
            "exported \(Quantity.groupedWords(places.count, "place", "places")) and "
                + Quantity.groupedWords(photoCount, "photo", "photos")
                + (heldCount > photoCount ? " (of \(Quantity.grouped(heldCount)))" : "")
                + " to \(writer.root.path)/index.html: \(writer.written) files written "
                + "(\(writer.linked) images linked from the cache), "
                + "\(writer.unchanged) unchanged; \(writer.rendered) pages rendered")
        if heldCount > photoCount {
            console.warn(
                "\(Quantity.groupedWords(heldCount - photoCount, "photo was", "photos were")) left out: at most "
                    + "\(Quantity.grouped(limit)) per place were listed; --limit N lists up to N per place"
                    + (configuration.options.source == .flickr
                        ? " (Flickr gives at most \(Quantity.grouped(FlickrSource.maximumResults)))" : ""))
        }
    }

    /// What `out` is to the export ("a new folder", "an empty folder", "the photomap site there",
    /// "files of yours, --force"); throws when it holds files and no photomap site, unless `force`: an
    /// export must not overwrite a user's own index.html.
    static func siteFolder(_ out: String, force: Bool) throws -> String {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: out) else { return "a new folder" }
        if names.isEmpty { return "an empty folder" }
        if SiteWriter.holdsSite(at: URL(fileURLWithPath: out)) { return "updating the photomap site there" }
        if force { return "into a folder of other files, --force" }
        throw CommandFailure(
            "\(out) holds \(Quantity.groupedWords(names.count, "file", "files")) and is not a photomap site "
                + "(no \(SiteManifest.fileName)): nothing written; give a new or empty folder, "
                + "or --force to write into it anyway (files of the same names are overwritten)")
    }

    /// Room kept in the cache for each photo of a batch: a square and a medium image take far less.
    static let imageBytesPerPhoto = 64 << 10

    /// An export that Flickr's rate limit will slow by at least this long says so before it starts.
    static let announcedSlowdown: TimeInterval = 5

    /// Says how long the pacing of Flickr calls will hold the export up, when that is long: each place's
    /// listing takes a call per 250 photos, and the licences one more.
    private static func warnOfPacing(places: Int, limit: Int, configuration: Services, console: Console) {
        guard let limiter = try? configuration.rateLimiter(console: console) else { return }
        let calls = places * ((limit + FlickrSource.maximumGeoPerPage - 1) / FlickrSource.maximumGeoPerPage) + 1
        let wait = limiter.estimatedWait(forCalls: calls)
        guard wait >= announcedSlowdown else { return }
        let minutes = Int((wait / 60).rounded(.up))
        console.warn(
            "exporting \(places) places takes up to \(calls) calls to Flickr's API; to stay under Flickr's "
                + "limit of \(limiter.callsPerHour) an hour for this key, photomap paces them, which adds about "
                + (wait < 90 ? "\(Int(wait.rounded(.up))) s" : "\(minutes) min")
                + " (answers already in the cache cost no call)")
    }
}
