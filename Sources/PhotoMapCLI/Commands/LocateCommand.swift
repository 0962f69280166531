import Foundation
import PhotoMapKit
import PhotoMapSupport

/// `photomap locate ID… (--at LAT,LON | --find TEXT | --like ID | --clear)`: sets or removes imported
/// photos' locations by hand.
enum LocateCommand {
    static let spec = CommandSpec(
        name: "locate",
        summary: "set or remove imported photos' locations by hand",
        discussion: """
            Puts the imported photos given (their ids, every photo of a place with --place-of, or the photos
            without a location with --without-location) at one location: --at LAT,LON, the first answer of
            `photomap find TEXT` with --find, the location of another photo with --like, or none with --clear.
            The catalog (the cache folder's, or the --database) records each as set by hand (locationSource
            "manual"): `geotag`, estimates and a new import of an unchanged file leave it as it is. Each
            photo joins the place its new location lies in; the search index and a running `serve` follow.
            With --sidecars write (or PHOTOMAP_SIDECARS=write) each location is also kept in the photo's XMP
            sidecar (see `photomap import --help`); the originals are never written. --dry-run lists what
            would change and changes nothing. The photos changed are listed as `photos` lists them (--json,
            --format, --output).
            """,
        options: [
            .value("at", .text("LAT,LON"), "put the photos at this coordinate (decimal degrees)"),
            .value("find", .text("TEXT"), "put the photos at the first location `photomap find TEXT` gives"),
            .value("like", .text("ID"), "put the photos where the imported photo ID is"),
            .flag("clear", "remove the photos' locations"),
            .value("place-of", .placeID, "every photo of this place (ids from `photomap --source local places`)"),
            .flag("without-location", "every photo without a location"),
            .flag("dry-run", "list what would change, and change nothing"),
        ] + SidecarOptions.all + AnnotationOutput.options,
        arguments: .words("ID..."),
        examples: [
            .init("locate 5f2c… 91ab… --at 46.3625,14.0936", "two photos at Bled castle"),
            .init("locate --place-of 3182884 --like 77d0…", "every photo of Arezzo where 77d0… is"),
            .init("locate 5f2c… --clear --sidecars write", "no location, kept in IMG_1234.JPG.xmp too"),
        ])

    static func run(_ parsed: ParsedArguments, configuration: Configuration, console: Console) throws {
        let targets = ["at", "find", "like", "clear"].filter(parsed.has)
        guard targets.count == 1 else {
            throw UsageError("locate needs one of --at LAT,LON, --find TEXT, --like ID or --clear")
        }
        let selections = [!parsed.arguments.isEmpty, parsed.has("place-of"), parsed.has("without-location")]
        guard selections.filter({ $0 }).count == 1 else {
            throw UsageError("locate needs photo ids, or --place-of PLACE_ID, or --without-location (one of them)")
        }
        let destination = try AnnotationOutput.destination(parsed)
        let coordinate = try atCoordinate(parsed)
        let sidecars = try SidecarOptions.writer(parsed, configuration: configuration, roots: [])
        var catalog = try configuration.state().localCatalogForImport()
        guard try catalog.version() > 0 else { throw ImportError.nothingImported }
        // The owner's view: a fenced or private photo is found, and moved, where it is.
        catalog.showsFenced = true
        catalog.audiences = Set(Audience.allCases)
        let photos: [Photo]
        if let place = parsed.value("place-of") {
            photos = try ManualLocation.photos(inPlace: place, of: catalog)
        } else if parsed.has("without-location") {
            photos = try ManualLocation.photos(inPlace: LocalPlace.unlocatedID, of: catalog)
        } else {
            photos = try ManualLocation.photos(parsed.arguments, in: catalog)
        }
        let target: Coordinate?
        if let like = parsed.value("like") {
            target = try ManualLocation.location(of: like, in: catalog)
        } else if let text = parsed.value("find") {
            let locations = Locations(configuration: configuration, console: console)
            guard let found = try locations.geocoding({ try $0.find(text, near: nil, limit: 1) }).first else {
                throw CommandFailure("no location found for \"\(text)\"; try `photomap find \(text)`")
            }
            target = found.entry.coordinate
        } else {
            target = coordinate
        }
        let located = try ManualLocation.located(photos, at: target, places: ImportCommand.places)
        let changed: [Photo]
        if parsed.has("dry-run") {
            changed = ManualLocation.preview(located, of: photos)
        } else {
            let written = try ManualLocation.write(
                located, into: catalog, sidecars: sidecars, index: { try configuration.state().index.open() },
                adapter: configuration.adapter)
            changed = written.changed
            if let report = written.sidecars { SidecarOptions.tell(report, console: console) }
        }
        let listing = Listing(entries: configuration.adapter.annotated(changed))
        let done = parsed.has("dry-run") ? "would change" : "changed"
        try PhotosCommand.write(
            listing, to: destination, title: "Photos located by hand", configuration: configuration,
            console: console, footer: "\(Quantity.groupedWords(changed.count, "photo", "photos")) \(done)",
            withSources: true)
        let unchanged = photos.count - changed.count
        if destination.format == nil, unchanged > 0 {
            console.note("\(Quantity.groupedWords(unchanged, "photo was", "photos were")) there already")
        }
    }

    /// `--at LAT,LON`, or nil when not given; a usage error for anything but two numbers on Earth.
    private static func atCoordinate(_ parsed: ParsedArguments) throws -> Coordinate? {
        guard let text = parsed.value("at") else { return nil }
        guard let coordinate = Geocoder.coordinate(in: text) else {
            throw UsageError(
                "--at \(text): give LAT,LON in decimal degrees, latitude within ±90 and longitude within ±180 "
                    + "(e.g. --at 46.3625,14.0936)")
        }
        return coordinate
    }
}
