// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit
import PhotoMapSupport

/// `photomap places`: the top places as a table, JSON or an open format.
enum PlacesCommand {
    static let spec = CommandSpec(
        name: "places",
        summary: "list the top places (flickr.places.getTopPlacesList)",
        discussion: "Lists the localities with the most photos: title, region, photo count and centre.",
        options: AnnotationOutput.options + [MapOutput.option.spec, FencesCommand.showFencedOption.spec],
        examples: [
            .init("places", "the top places, as a table that fits the terminal"),
            .init("places --json", "the same, as a JSON array of annotations"),
            .init("places --format geojson --output places.geojson", "GeoJSON for QGIS, uMap or geojson.io"),
        ])

    static func run(_ options: ListingOptions, configuration: Services, console: Console) throws {
        let destination = options.destination
        let listing = try configuration.makeSource(console: console).topPlaces()
        for line in listing.skipped { console.warn("skipped \(line)") }
        let annotations = listing.entries.map(\.annotation)
        try AnnotationOutput.write(
            annotations.map { OutputRecord($0) }, to: destination, title: "Top places",
            configuration: configuration,
            console: console
        ) { width in
            AnnotationOutput.table(
                annotations,
                columns: [
                    .init(heading: "PLACE ID"), .init(heading: "NAME", flexible: true),
                    .init(heading: "REGION", flexible: true),
                    .init(heading: "PHOTOS", alignRight: true),
                ],
                width: width, footer: Quantity.words(annotations.count, "place", "places")
            ) {
                [$0.id, $0.title, $0.subtitle, $0.photoCount.map(String.init) ?? ""]
            }
        }
        if let file = options.map {
            let (builder, writer) = try MapOutput.builder(
                for: file,
                images: configuration.makeThumbnailCache(console: console),
                configuration: configuration)
            try builder.writeAssets()
            // A standalone map has no place pages: each place links to its page on Flickr.
            try builder.writePlacesPage(
                at: file.lastPathComponent, title: "Top places",
                subtitle: Quantity.words(annotations.count, "place", "places"),
                places: listing.entries, back: nil, defaultView: "map"
            ) { $0.flickrPageURL }
            MapOutput.report(file, writer: writer, console: console)
        }
    }
}
