import PhotoMapKit

/// `photomap photos --place ID`: the photos taken in a place.
enum PhotosCommand {
    static let spec = CommandSpec(
        name: "photos",
        summary: "list the photos taken in a place (flickr.photos.search)",
        usage: "photomap photos --place ID [--limit N] [--json] [--prefetch]",
        discussion: """
        Lists up to N photos taken in the place (its id is in `photomap places`): title, the first words
        of the description, date taken and coordinate. Photos without geo are listed with no coordinate.
        """,
        options: [
            .value("place", "ID", "the place's id (required)"),
            .value("limit", "N", "at most N photos, 1–\(FlickrSource.maximumResults) (default 100)"),
            .flag("json", "print a JSON array of annotations instead of a table"),
            .flag("prefetch", "fetch the listed photos' 75×75 squares into the thumbnail cache now"),
        ])

    static func run(_ parsed: ParsedArguments, configuration: Configuration, console: Console) throws {
        guard let placeID = parsed.value("place"), !placeID.isEmpty else {
            throw UsageError("photos needs --place ID (the ids are in `photomap places`)")
        }
        let limit = try limit(parsed.value("limit"))
        let listing = try configuration.makeSource(console: console).photos(inPlace: placeID, limit: limit)
        AnnotationOutput.reportSkipped(listing.skipped, console: console)
        let adapter = configuration.adapter
        let annotations = listing.items.map(adapter.annotation(for:))
        if parsed.has("prefetch") {
            try Prefetcher.run(listing.items, cache: configuration.makeThumbnailCache(), console: console)
        }
        if parsed.has("json") {
            console.print(try AnnotationOutput.json(annotations))
            return
        }
        var table = Table(columns: [
            .init(heading: "PHOTO ID"), .init(heading: "TITLE", flexible: true),
            .init(heading: "DESCRIPTION", flexible: true), .init(heading: "TAKEN"),
            .init(heading: "LATITUDE", alignRight: true), .init(heading: "LONGITUDE", alignRight: true),
        ])
        table.rows = annotations.map { annotation in
            [annotation.id, annotation.title, annotation.subtitle, String((annotation.dateTaken ?? "").prefix(10)),
             AnnotationOutput.degrees(annotation.coordinate?.latitude),
             AnnotationOutput.degrees(annotation.coordinate?.longitude)]
        }
        table.render(width: console.width).forEach { console.print($0) }
        let total = listing.total.map { " of \($0)" } ?? ""
        console.print("\(annotations.count)\(total) photos")
    }

    private static func limit(_ text: String?) throws(UsageError) -> Int {
        guard let text else { return 100 }
        guard let value = Int(text), (1...FlickrSource.maximumResults).contains(value) else {
            throw UsageError("--limit must be a whole number from 1 to \(FlickrSource.maximumResults), not '\(text)'")
        }
        return value
    }
}
