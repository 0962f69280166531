// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// `photomap find QUERY`: geocoding; a typed address, landmark or place name becomes locations.
enum FindCommand {
    static let spec = CommandSpec(
        name: "find",
        summary: "find a place, landmark or address (geocoding)",
        discussion: """
            Prints the locations QUERY names, best first: by how well the text matches, then importance
            (population), favouring those near --near. A qualifier after a comma narrows by country or US
            state ("Portland, Maine", "Córdoba, Argentina"). Accents and case do not matter. The title is the
            landmark's name, else the street, else the city; the subtitle the coordinate. Offline (the default)
            it searches GeoNames cities over 15,000 people and the catalog's places and landmarks, then
            villages of 1,000 people or more (after anything else that matches: "Zermatt" is the village,
            "Toronto" the city); with Flickr as the source, flickr.places.find too. --map centres a map page on the best location.
            \(Locations.geonamesCredit)
            """,
        options: [Locations.nearOption.spec, limitOption.spec] + AnnotationOutput.options + [MapOutput.option.spec],
        arguments: .words("QUERY"),
        examples: [
            .init("find \"Radio City Music Hall\"", "a landmark's location"),
            .init("find Paris --near 33.66,-95.55", "Paris, Texas, not Paris, France"),
        ])

    /// `--limit N`.
    static let limitOption = Option<Int>.integer("limit", "N", 1...1_000, "at most N locations", default: "5")

    /// What `find` was asked, decoded once.
    struct Options: CommandOptions {
        var query: String
        var near: String?
        var limit: Int
        var destination: AnnotationOutput.Destination
        /// `--map`: the page's file, if asked for.
        var map: URL?

        init(_ parsed: ParsedArguments, global: GlobalOptions) throws(UsageError) {
            query = parsed.arguments.joined(separator: " ").trimmingCharacters(in: .whitespaces)
            guard !query.isEmpty else {
                throw UsageError("find needs a QUERY, e.g. photomap find \"Radio City Music Hall\"")
            }
            limit = try parsed.value(limitOption) ?? 0
            destination = try AnnotationOutput.destination(parsed)
            near = try parsed.value(Locations.nearOption)
            let defaultName = "photomap-find-\(HTML.fileName(for: SearchTextSlug.slug(query))).html"
            map = try MapOutput.file(parsed, defaultName: defaultName)
        }
    }

    static func run(_ options: Options, configuration: Services, console: Console) throws {
        let (query, limit, destination) = (options.query, options.limit, options.destination)
        let locations = Locations(configuration: configuration, console: console)
        let near = try locations.near(options.near)
        let results = try locations.geocoding { try $0.find(query, near: near, limit: limit) }
        guard !results.isEmpty else { throw CommandFailure("no location found for \"\(query)\"") }
        let annotations = results.map(\.entry.annotation)
        try AnnotationOutput.write(
            annotations.map { OutputRecord($0) }, to: destination,
            title: "Locations for \(query)",
            configuration: configuration, console: console
        ) { width in
            var table = Table(
                columns: [
                    .init(heading: "TITLE", flexible: true),
                    .init(heading: "WHERE", flexible: true),
                    .init(heading: "LATITUDE", alignRight: true),
                    .init(heading: "LONGITUDE", alignRight: true),
                ]
                    + (near == nil ? [] : [.init(heading: "KM", alignRight: true)]))
            table.rows = results.map { result in
                [
                    result.entry.annotation.title, result.entry.context,
                    String(format: "%.6f", result.entry.coordinate.latitude),
                    String(format: "%.6f", result.entry.coordinate.longitude),
                ]
                    + (result.distanceKilometres.map { [String(format: "%.1f", $0)] } ?? [])
            }
            return table.render(width: width)
        }
        if let file = options.map {
            // Locations come from the gazetteer too, whatever the source.
            let (builder, writer) = try MapOutput.builder(
                for: file,
                images: configuration.makeThumbnailCache(console: console),
                configuration: configuration, alsoFrom: [.geonames])
            try builder.writeAssets()
            try builder.writeAnnotationsPage(
                at: file.lastPathComponent, title: annotations[0].title,
                subtitle: annotations[0].subtitle,
                annotations: annotations, focus: annotations[0].coordinate)
            MapOutput.report(file, writer: writer, console: console)
        }
    }
}

/// Short file-name-safe words from a query, for default map names.
enum SearchTextSlug {
    static func slug(_ text: String) -> String {
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }.prefix(4)
        let slug = words.joined(separator: "-").filter { $0.isASCII }
        return slug.isEmpty ? "query" : String(slug.prefix(40))
    }
}
