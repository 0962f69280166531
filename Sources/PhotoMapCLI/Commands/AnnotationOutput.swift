import Foundation
import PhotoMapKit

/// Prints annotations as JSON (`--json`) for scripts.
enum AnnotationOutput {
    /// A pretty-printed JSON array with stable key order.
    static func json(_ annotations: [Annotation]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(annotations), as: UTF8.self)
    }

    /// Prints a listing: warnings for skipped records, then JSON or a table whose rows are
    /// `cells(annotation)` followed by the latitude and longitude, then `footer`.
    static func present<Item>(_ listing: Listing<Item>, annotations: [Annotation], json: Bool, console: Console,
                              columns: [Table.Column], cells: (Annotation) -> [String], footer: String) throws {
        for line in listing.skipped { console.warn("skipped \(line)") }
        if json { return console.print(try Self.json(annotations)) }
        var table = Table(columns: columns + [.init(heading: "LATITUDE", alignRight: true),
                                              .init(heading: "LONGITUDE", alignRight: true)])
        table.rows = annotations.map { annotation in
            cells(annotation) + [annotation.coordinate?.latitude, annotation.coordinate?.longitude]
                .map { $0.map { String(format: "%.4f", $0) } ?? "" }
        }
        table.render(width: console.width).forEach { console.print($0) }
        console.print(footer)
    }
}
