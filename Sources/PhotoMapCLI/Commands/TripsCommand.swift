// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapModel
import PhotoMapSupport

/// `photomap trips`: the journeys found in the imported photos by time and place (`TripFinder`).
enum TripsCommand {
    /// `--home LAT,LON`: two numbers on Earth, else a usage error.
    static let homeOption = Option<String>.text(
        "home", "LAT,LON", "where trips start from; else a fence named home, else the town of most days"
    ).map { text throws(UsageError) in
        guard let coordinate = Geocoder.coordinate(in: text) else {
            throw UsageError("--home \(text): give home as LAT,LON, e.g. --home 46.0569,14.5058")
        }
        return coordinate
    }
    static let awayOption = Option<Double>.number(
        "away-km", "KM", 1...20_000, "how far from home a day's photos must all be to be away (50)")
    static let gapOption = Option<Int>.integer(
        "gap-days", "DAYS", 0...30, "how many days without located photos a trip may hold (2)")
    static let formats = ["table", "json", "csv", "geojson"]
    static let formatOption = Option<String>.choice(
        "format", formats, "table (the default), json, csv or geojson; with --output, the file's extension"
    ) { $0 }

    static let spec = CommandSpec(
        name: "trips",
        summary: "the trips your imported photos show, found by time and place (--source local)",
        discussion: """
            Finds trips in the photos you imported. Home is --home LAT,LON, else the centre of a fence named
            home, else the town where your photos fall on the most days; it is printed (on standard error)
            so that you see the guess. A day, in each photo's own local date, is away when all its located
            photos lie more than --away-km (50) from home or in another country, and a home day when any lies
            within that distance in home's country. A trip is a run of away days with at most --gap-days (2)
            days between them without located photos, never across a home day; it holds every photo of its
            days. It is named for its most photographed region and country, or the two most photographed
            when the second has at least 80 % of the first's photos ("Tuscany and Umbria, Italy"). KM is
            the length of its way: the GPX track lines recorded on its days (import --gpx, geotag) where it
            has them, else its located photos in the order they were taken. --format json gives home
            too; the routes of --format geojson stop 1 km before home and outside every fence.
            --map FILE writes FILE with the trips, each linking to its page (its way under its photos, and
            a section per day with its own map, printable a day a page); fenced photos show no location
            there, and the ways stop 1 km before home and outside every fence, as on every shared page.
            """,
        options: [
            homeOption.spec, awayOption.spec, gapOption.spec, formatOption.spec, outputOption.spec,
            MapOutput.option.spec,
        ],
        examples: [
            .init("--source local trips", "your trips, newest first"),
            .init(
                "--source local trips --home 46.0569,14.5058 --format geojson --output trips.geojson", "their routes"),
            .init("--source local trips --map trips.html", "a page per trip, and their index in trips.html"),
        ])

    /// `--output FILE`, on `trips` and `visited`.
    static let outputOption = Option<URL>.file(
        "output", "FILE", "write to FILE, whole or not at all, instead of standard output")

    /// What `trips` was asked, decoded once.
    struct Options: CommandOptions {
        var destination: Destination
        /// `--home`, if given.
        var home: Coordinate?
        var awayKilometres: Double
        var gapDays: Int
        /// `--map`: the index page's file, if asked for.
        var map: URL?

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            destination = try Destination(parsed, format: formatOption, formats: formats)
            home = try parsed.value(homeOption)
            awayKilometres = try parsed.value(awayOption) ?? 50
            gapDays = try parsed.value(gapOption) ?? 2
            map = try MapOutput.file(parsed, defaultName: "photomap-trips.html")
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        let (format, file) = (options.destination.format, options.destination.file)
        let store = try importedPhotos(configuration, command: "trips")
        let fences = try store.fences()
        let awayKilometres = options.awayKilometres
        // From the rows of the days the catalog keeps, where it keeps them: the town of most days needs
        // no photo, and only the photos of the trips' days (and of days a box leaves in doubt) are read.
        let days = try store.tripDays()
        let home: Home
        var photos: [TripPhoto]?
        if let days, options.home == nil, !fences.contains(where: { $0.name == "home" }),
            let found = Home.mostDays(days)
        {
            home = found
        } else {
            let all = try store.tripPhotos()
            home = try findHome(options.home, photos: all, fences: fences, reach: awayKilometres)
            photos = all
        }
        let finder = TripFinder(home: home, awayKilometres: awayKilometres, gapDays: options.gapDays)
        let found =
            try days.map { try finder.trips($0, photos: store.tripPhotos(in:)) }
            ?? finder.trips(photos ?? store.tripPhotos())
        let trips = TripRoutes.attach(try store.keptTrackLines(), to: found)
        let text: String
        switch format {
        case "json": text = try TripFormats.json(trips, home: home) + "\n"
        case "csv": text = TripFormats.csv(trips)
        case "geojson": text = try TripFormats.geojson(trips, home: home, fences: fences) + "\n"
        default:
            console.note(
                "home: \(home.name) (\(String(format: "%.4f,%.4f", home.coordinate.latitude, home.coordinate.longitude)))"
            )
            text = table(trips, width: file == nil ? console.width : nil)
        }
        try write(text, to: file, console: console)
        if let page = options.map {
            try writeMap(page, trips: trips, home: home, fences: fences, configuration: configuration, console: console)
        }
    }

    /// `--map FILE`: the index of trips at FILE, their pages and their photos' pages beside it, showing the
    /// photos as the command line's view holds them (fenced ones without a location unless --show-fenced).
    static func writeMap(
        _ file: URL, trips: [Trip], home: Home, fences: [Geofence], configuration: Services,
        console: Console
    ) throws {
        guard var viewer = try configuration.state().importedPhotos() else { throw ImportError.nothingImported }
        viewer.showsFenced = configuration.options.showsFenced
        // Whose view the pages show, as every --map's source does (the command line is the owner).
        viewer.audiences = configuration.audiences
        let shown = Dictionary(
            configuration.adapter.annotated(try viewer.allPhotos()).map { ($0.record.id, $0) },
            uniquingKeysWith: { first, _ in first })
        let album = TripAlbum(trips: trips, home: home.coordinate, fences: fences, shown: shown)
        let (builder, writer) = try MapOutput.builder(
            for: file, images: configuration.makeThumbnailCache(console: console), configuration: configuration)
        try builder.writeAssets()
        try builder.writeTrips(album, index: file.lastPathComponent, back: nil, photoPages: true)
        MapOutput.report(file, writer: writer, console: console)
    }

    /// The table of trips, newest first, and how many there are.
    static func table(_ trips: [Trip], width: Int?) -> String {
        var table = Table(columns: [
            .init(heading: "TRIP", flexible: true), .init(heading: "FROM"), .init(heading: "TO"),
            .init(heading: "DAYS", alignRight: true), .init(heading: "PHOTOS", alignRight: true),
            .init(heading: "KM", alignRight: true), .init(heading: "COUNTRIES", flexible: true),
        ])
        table.rows = trips.map { trip in
            [
                trip.name, trip.from, trip.to, Quantity.grouped(trip.days), Quantity.grouped(trip.photos.count),
                Quantity.grouped(Int(trip.kilometres.rounded())), trip.countries.joined(separator: ", "),
            ]
        }
        return (table.render(width: width) + [Quantity.groupedWords(trips.count, "trip", "trips")])
            .map { $0 + "\n" }.joined()
    }

    /// Home by `--home`, a fence named home, or the town of most days.
    private static func findHome(
        _ given: Coordinate?, photos: [TripPhoto], fences: [Geofence], reach: Double
    ) throws -> Home {
        if let given { return Home.at(given, photos: photos, reach: reach) }
        if let fence = fences.first(where: { $0.name == "home" }) {
            return Home.at(fence.centre, photos: photos, reach: reach)
        }
        guard let home = Home.mostDays(photos) else {
            throw CommandFailure(
                "no imported photo is in a town, so home cannot be guessed; give it with --home LAT,LON")
        }
        return home
    }

    /// The imported photos' catalog, read as their owner sees it (fenced photos where they were taken:
    /// home days must count as home); a usage error for another source.
    static func importedPhotos(_ configuration: Services, command: String) throws -> any LocalCatalogStore {
        guard configuration.options.source == .local else {
            throw UsageError(
                "\(command) reads the photos you imported: import them with `photomap import FOLDER`, "
                    + "then run `photomap --source local \(command)`")
        }
        guard var store = try configuration.state().importedPhotos() else { throw ImportError.nothingImported }
        store.showsFenced = true
        store.audiences = configuration.audiences
        return store
    }

    /// `--format` and `--output` of `trips` and `visited`: the format (by default the file's extension,
    /// else the table) and the file.
    struct Destination: Sendable {
        var format: String
        var file: URL?

        init(_ parsed: ParsedArguments, format option: Option<String>, formats: [String]) throws(UsageError) {
            file = try parsed.value(outputOption)
            if let named = try parsed.value(option) {
                format = named
                return
            }
            guard let file, !["", "txt"].contains(file.pathExtension.lowercased()) else {
                format = "table"
                return
            }
            format = file.pathExtension.lowercased()
            guard formats.contains(format) else {
                throw UsageError(
                    "--output \(file.lastPathComponent): name it ." + formats.dropFirst().joined(separator: ", .")
                        + " or .txt (the table), or choose with --format")
            }
        }
    }

    /// Writes `text` to standard output, or whole to `file` (saying so on standard error).
    static func write(_ text: String, to file: URL?, console: Console) throws {
        guard let file else { return console.out(text) }
        do {
            let staged = try StagedFile(replacing: file)
            try staged.write(text)
            try staged.commit()
        } catch {
            throw CommandFailure("could not write \(file.path): \(String(cString: strerror(error.code.rawValue)))")
        }
        console.note("written to \(file.path)")
    }
}
