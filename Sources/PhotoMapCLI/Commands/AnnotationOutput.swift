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

    /// "48.8566", or "" without a coordinate.
    static func degrees(_ value: Double?) -> String {
        value.map { String(format: "%.4f", $0) } ?? ""
    }

    /// Reports the records a source had to skip, one warning each.
    static func reportSkipped(_ skipped: [String], console: Console) {
        for line in skipped { console.warn("skipped \(line)") }
    }
}
