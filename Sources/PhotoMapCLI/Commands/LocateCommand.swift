// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
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
            atOption.spec, findOption.spec, likeOption.spec, clearFlag.spec, placeOfOption.spec,
            withoutLocationFlag.spec, dryRunFlag.spec,
        ] + SidecarOptions.all + AnnotationOutput.options,
        arguments: .words("ID..."),
        examples: [
            .init("locate 5f2c… 91ab… --at 46.3625,14.0936", "two photos at Bled castle"),
            .init("locate --place-of 3182884 --like 77d0…", "every photo of Arezzo where 77d0… is"),
            .init("locate 5f2c… --clear --sidecars write", "no location, kept in IMG_1234.JPG.xmp too"),
        ])

    /// `--at LAT,LON`: two numbers on Earth, else a usage error.
    static let atOption = Option<String>.text("at", "LAT,LON", "put the photos at this coordinate (decimal degrees)")
        .map { text throws(UsageError) in
            guard let coordinate = Geocoder.coordinate(in: text) else {
                throw UsageError(
                    "--at \(text): give LAT,LON in decimal degrees, latitude within ±90 and longitude within ±180 "
                        + "(e.g. --at 46.3625,14.0936)")
            }
            return coordinate
        }
    static let findOption = Option<String>.text(
        "find", "TEXT", "put the photos at the first location `photomap find TEXT` gives")
    static let likeOption = Option<String>.text("like", "ID", "put the photos where the imported photo ID is")
    static let clearFlag = Flag("clear", "remove the photos' locations")
    static let placeOfOption = Option<String>.placeID(
        "place-of", "every photo of this place (ids from `photomap --source local places`)")
    static let withoutLocationFlag = Flag("without-location", "every photo without a location")
    static let dryRunFlag = Flag("dry-run", "list what would change, and change nothing")

    /// What `locate` was asked, decoded once.
    struct Options: CommandOptions {
        /// Where the photos go.
        enum Target {
            case at(Coordinate), find(String), like(String), clear
        }

        /// Which photos.
        enum Selection {
            case ids([String]), placeOf(String), withoutLocation
        }

        var target: Target
        var selection: Selection
        var dryRun: Bool
        var destination: AnnotationOutput.Destination
        var sidecars: SidecarOptions.Values

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            let targets = [parsed.has(atOption), parsed.has(findOption), parsed.has(likeOption), parsed.has(clearFlag)]
            guard targets.filter({ $0 }).count == 1 else {
                throw UsageError("locate needs one of --at LAT,LON, --find TEXT, --like ID or --clear")
            }
            let placeOf = try parsed.value(placeOfOption)
            let withoutLocation = parsed.has(withoutLocationFlag)
            let selections = [!parsed.arguments.isEmpty, placeOf != nil, withoutLocation]
            guard selections.filter({ $0 }).count == 1 else {
                throw UsageError("locate needs photo ids, or --place-of PLACE_ID, or --without-location (one of them)")
            }
            destination = try AnnotationOutput.destination(parsed)
            if let coordinate = try parsed.value(atOption) {
                target = .at(coordinate)
            } else if let like = try parsed.value(likeOption) {
                target = .like(like)
            } else if let text = try parsed.value(findOption) {
                target = .find(text)
            } else {
                target = .clear
            }
            selection = placeOf.map { .placeOf($0) } ?? (withoutLocation ? .withoutLocation : .ids(parsed.arguments))
            dryRun = parsed.has(dryRunFlag)
            sidecars = try SidecarOptions.Values(parsed, environment: global.environment)
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        let destination = options.destination
        let sidecars = options.sidecars.writer(roots: [])
        var catalog = try configuration.state().localCatalogForImport()
        guard try catalog.version() > 0 else { throw ImportError.nothingImported }
        // The owner's view: a fenced or private photo is found, and moved, where it is.
        catalog.showsFenced = true
        catalog.audiences = Set(Audience.allCases)
        let photos: [Photo]
        switch options.selection {
        case let .placeOf(place): photos = try ManualLocation.photos(inPlace: place, of: catalog)
        case .withoutLocation: photos = try ManualLocation.photos(inPlace: LocalPlace.unlocatedID, of: catalog)
        case let .ids(ids): photos = try ManualLocation.photos(ids, in: catalog)
        }
        let target: Coordinate?
        switch options.target {
        case let .like(like):
            target = try ManualLocation.location(of: like, in: catalog)
        case let .find(text):
            let locations = Locations(configuration: configuration, console: console)
            guard let found = try locations.geocoding({ try $0.find(text, near: nil, limit: 1) }).first else {
                throw CommandFailure("no location found for \"\(text)\"; try `photomap find \(text)`")
            }
            target = found.entry.coordinate
        case let .at(coordinate):
            target = coordinate
        case .clear:
            target = nil
        }
        let located = try ManualLocation.located(photos, at: target, places: ImportCommand.places)
        let changed: [Photo]
        if options.dryRun {
            changed = ManualLocation.preview(located, of: photos)
        } else {
            let written = try ManualLocation.write(
                located, into: catalog, sidecars: sidecars, index: { try configuration.state().index.open() },
                adapter: configuration.adapter)
            changed = written.changed
            if let report = written.sidecars { SidecarOptions.tell(report, console: console) }
        }
        let listing = Listing(entries: configuration.adapter.annotated(changed))
        let done = options.dryRun ? "would change" : "changed"
        try PhotosCommand.write(
            listing, to: destination, title: "Photos located by hand", configuration: configuration,
            console: console, footer: "\(Quantity.groupedWords(changed.count, "photo", "photos")) \(done)",
            withSources: true)
        let unchanged = photos.count - changed.count
        if destination.format == nil, unchanged > 0 {
            console.note("\(Quantity.groupedWords(unchanged, "photo was", "photos were")) there already")
        }
    }
}
