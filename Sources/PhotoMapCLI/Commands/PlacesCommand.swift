import Foundation
import PhotoMapKit

/// `photomap places`: the top places as a table or JSON.
enum PlacesCommand {
    static let spec = CommandSpec(
        name: "places",
        summary: "list the top places (flickr.places.getTopPlacesList)",
        usage: "photomap places [--json] [--map [FILE]]",
        discussion: "Lists the localities with the most photos: title, region, photo count and centre.",
        options: [.flag("json", "print a JSON array of annotations instead of a table"), MapOutput.option])

    static func run(_ parsed: ParsedArguments, configuration: Configuration, console: Console) throws {
        let listing = try configuration.makeSource(console: console).topPlaces()
        let annotations = listing.items.map(configuration.adapter.annotation(for:))
        try AnnotationOutput.present(
            listing, annotations: annotations, json: parsed.has("json"), console: console,
            columns: [.init(heading: "PLACE ID"), .init(heading: "NAME", flexible: true),
                      .init(heading: "REGION", flexible: true), .init(heading: "PHOTOS", alignRight: true)],
            cells: { [$0.id, $0.title, $0.subtitle, $0.photoCount.map(String.init) ?? ""] },
            footer: "\(annotations.count) places")
        if let file = MapOutput.file(parsed, defaultName: "photomap-places.html") {
            let (builder, writer) = try MapOutput.builder(for: file, configuration: configuration)
            try builder.writeAssets()
            // A standalone map has no place pages: each place links to its page on Flickr.
            try builder.writePlacesPage(at: file.lastPathComponent, title: "Top places", subtitle: "\(listing.items.count) places",
                                        places: listing.items, back: nil, defaultView: "map") { place in
                // Only an absolute Flickr URL: a place_url that is not a plain path gives no link.
                place.url.isEmpty ? nil
                    : HTML.webURL("https://www.flickr.com/places" + (place.url.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""))
            }
            MapOutput.report(file, writer: writer, console: console)
        }
    }
}
