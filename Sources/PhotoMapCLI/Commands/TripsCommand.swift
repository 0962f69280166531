import Foundation
import PhotoMapKit
import PhotoMapSupport

/// `photomap trips`: the journeys found in the imported photos by time and place (`TripFinder`).
enum TripsCommand {
    static let homeOption = OptionSpec.value(
        "home", .text("LAT,LON"), "where trips start from; else a fence named home, else the town of most days")
    static let awayOption = OptionSpec.value(
        "away-km", .number("KM", 1...20_000), "how far from home a day's photos must all be to be away (50)")
    static let gapOption = OptionSpec.value(
        "gap-days", .integer("DAYS", 0...30), "how many days without located photos a trip may hold (2)")
    static let formats = ["table", "json", "csv", "geojson"]

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
            homeOption, awayOption, gapOption,
            .value(
                "format", .choice(formats),
                "table (the default), json, csv or geojson; with --output, the file's extension"),
            outputOption, MapOutput.option,
        ],
        examples: [
            .init("--source local trips", "your trips, newest first"),
            .init(
                "--source local trips --home 46.0569,14.5058 --format geojson --output trips.geojson", "their routes"),
            .init("--source local trips --map trips.html", "a page per trip, and their index in trips.html"),
        ])

    /// `--output FILE`, on `trips` and `visited`.
    static let outputOption = OptionSpec.value(
        "output", .file("FILE"), "write to FILE, whole or not at all, instead of standard output")

    static func run(_ parsed: ParsedArguments, configuration: Configuration, console: Console) throws {
        let (format, file) = try destination(parsed, formats: formats)
        let store = try importedPhotos(configuration, command: "trips")
        let photos = try store.tripPhotos()
        let fences = try store.fences()
        let awayKilometres = parsed.number(awayOption) ?? 50
        let home = try findHome(parsed, photos: photos, fences: fences, reach: awayKilometres)
        let finder = TripFinder(home: home, awayKilometres: awayKilometres, gapDays: parsed.integer(gapOption) ?? 2)
        let trips = TripRoutes.attach(try store.keptTrackLines(), to: finder.trips(photos))
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
        if let page = MapOutput.file(parsed, defaultName: "photomap-trips.html") {
            try writeMap(page, trips: trips, home: home, fences: fences, configuration: configuration, console: console)
        }
    }

    /// `--map FILE`: the index of trips at FILE, their pages and their photos' pages beside it, showing the
    /// photos as the command line's view holds them (fenced ones without a location unless --show-fenced).
    static func writeMap(
        _ file: URL, trips: [Trip], home: Home, fences: [Geofence], configuration: Configuration,
        console: Console
    ) throws {
        guard var viewer = try configuration.state().importedPhotos() else { throw ImportError.nothingImported }
        viewer.showsFenced = configuration.showsFenced
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
        _ parsed: ParsedArguments, photos: [TripPhoto], fences: [Geofence], reach: Double
    ) throws -> Home {
        if let text = parsed.value("home") {
            guard let coordinate = Geocoder.coordinate(in: text) else {
                throw UsageError("--home \(text): give home as LAT,LON, e.g. --home 46.0569,14.5058")
            }
            return Home.at(coordinate, photos: photos, reach: reach)
        }
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
    static func importedPhotos(_ configuration: Configuration, command: String) throws -> any LocalCatalogStore {
        guard configuration.source == .local else {
            throw UsageError(
                "\(command) reads the photos you imported: import them with `photomap import FOLDER`, "
                    + "then run `photomap --source local \(command)`")
        }
        guard var store = try configuration.state().importedPhotos() else { throw ImportError.nothingImported }
        store.showsFenced = true
        store.audiences = configuration.audiences
        return store
    }

    /// `--format` and `--output`: the format (by default the file's extension, else the table) and file.
    static func destination(_ parsed: ParsedArguments, formats: [String]) throws(UsageError) -> (String, URL?) {
        if let output = parsed.value("output"), output.isEmpty { throw UsageError("--output needs a file name") }
        let file = parsed.value("output").map { URL(fileURLWithPath: $0) }
        if let named = parsed.value("format") { return (named, file) }
        guard let file, !["", "txt"].contains(file.pathExtension.lowercased()) else { return ("table", file) }
        let format = file.pathExtension.lowercased()
        guard formats.contains(format) else {
            throw UsageError(
                "--output \(file.lastPathComponent): name it ." + formats.dropFirst().joined(separator: ", .")
                    + " or .txt (the table), or choose with --format")
        }
        return (format, file)
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
