// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// `photomap visited`: the countries, regions and towns of the imported photos, with first and last visit.
enum VisitedCommand {
    static let formats = ["table", "json", "csv", "geojson"]
    static let formatOption = Option<String>.choice(
        "format", formats, "table (the default), json, csv or geojson; with --output, the file's extension"
    ) { $0 }

    static let spec = CommandSpec(
        name: "visited",
        summary: "the countries, regions and towns your imported photos were taken in (--source local)",
        discussion: """
            Lists the places of the photos you imported: each country, its regions (divisions) and their
            towns, with how many photos, on how many days (each photo's own local date), and the first and
            last of those days, and its cover: the id of its last photo taken. The most photographed come
            first. --format json, csv and geojson give each country's and region's page id as `id`, the ID
            of its page /visited/ID on `serve` and visited/ID.html in `export` (italy-tuscany-0ae82b44d3);
            a town has none (its photos are its place's page). --format geojson gives each country, then each of its regions, with its outline (Natural
            Earth's boundaries, which import names places by) to shade by photo count. Photos your fences
            hide are counted where they were taken: this is your own view; `serve` (/visited) and `export`
            (visited.html) show each viewer only the photos they may see.
            """,
        options: [formatOption.spec, TripsCommand.outputOption.spec],
        examples: [
            .init("--source local visited", "countries, regions and towns, indented"),
            .init("--source local visited --format json", "each country with its regions and their towns"),
            .init("--source local visited --output visited.geojson", "countries and regions with their outlines"),
        ])

    /// What `visited` was asked, decoded once.
    struct Options: CommandOptions {
        var destination: TripsCommand.Destination

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            destination = try TripsCommand.Destination(parsed, format: formatOption, formats: formats)
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        let (format, file) = (options.destination.format, options.destination.file)
        let store = try TripsCommand.importedPhotos(configuration, command: "visited")
        let visited = VisitedPlace.tree(try store.tripPhotos())
        let text: String
        switch format {
        case "json": text = try TripFormats.json(visited) + "\n"
        case "csv": text = TripFormats.csv(visited)
        case "geojson": text = try TripFormats.geojson(try outlines().areas(visited)) + "\n"
        default: text = table(visited, width: file == nil ? console.width : nil)
        }
        try TripsCommand.write(text, to: file, console: console)
    }

    /// The boundaries' outlines, which import names places by.
    static func outlines() throws -> VisitedOutlines {
        guard let fixtures = FixtureSource.locateFixtures(containing: "gazetteer/boundaries.bin") else {
            throw LocationError.gazetteerMissing("Fixtures/gazetteer/boundaries.bin")
        }
        return try VisitedOutlines.load(gazetteer: fixtures.appendingPathComponent("gazetteer"))
    }

    /// Countries, regions indented under them, towns under those, each with its cover photo's id.
    static func table(_ visited: [VisitedPlace], width: Int?) -> String {
        var table = Table(columns: [
            .init(heading: "PLACE", flexible: true), .init(heading: "PHOTOS", alignRight: true),
            .init(heading: "DAYS", alignRight: true), .init(heading: "FIRST"), .init(heading: "LAST"),
            .init(heading: "COVER"),
        ])
        func add(_ place: VisitedPlace, depth: Int) {
            table.rows.append([
                String(repeating: "  ", count: depth) + place.name, Quantity.grouped(place.photos),
                Quantity.grouped(place.days), place.first, place.last, place.cover.id,
            ])
            for child in place.children { add(child, depth: depth + 1) }
        }
        for country in visited { add(country, depth: 0) }
        return (table.render(width: width) + [Quantity.groupedWords(visited.count, "country", "countries")])
            .map { $0 + "\n" }.joined()
    }
}
