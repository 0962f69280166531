import PhotoMapKit

/// `photomap places`: the top places as a table or JSON.
enum PlacesCommand {
    static let spec = CommandSpec(
        name: "places",
        summary: "list the top places (flickr.places.getTopPlacesList)",
        usage: "photomap places [--json]",
        discussion: "Lists the localities with the most photos: title, region, photo count and centre.",
        options: [.flag("json", "print a JSON array of annotations instead of a table")])

    static func run(_ parsed: ParsedArguments, configuration: Configuration, console: Console) throws {
        let listing = try configuration.makeSource(console: console).topPlaces()
        AnnotationOutput.reportSkipped(listing.skipped, console: console)
        let adapter = configuration.adapter
        let annotations = listing.items.map(adapter.annotation(for:))
        if parsed.has("json") {
            console.print(try AnnotationOutput.json(annotations))
            return
        }
        var table = Table(columns: [
            .init(heading: "PLACE ID"), .init(heading: "NAME", flexible: true), .init(heading: "REGION", flexible: true),
            .init(heading: "PHOTOS", alignRight: true), .init(heading: "LATITUDE", alignRight: true),
            .init(heading: "LONGITUDE", alignRight: true),
        ])
        table.rows = annotations.map { annotation in
            [annotation.id, annotation.title, annotation.subtitle, annotation.photoCount.map(String.init) ?? "",
             AnnotationOutput.degrees(annotation.coordinate?.latitude),
             AnnotationOutput.degrees(annotation.coordinate?.longitude)]
        }
        table.render(width: console.width).forEach { console.print($0) }
        console.print("\(annotations.count) places")
    }
}
