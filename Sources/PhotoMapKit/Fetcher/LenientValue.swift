import Foundation

/// A JSON value Flickr sends as a string in one answer and a number in the next
/// (`"pages":"40671"` beside `"perpage":5`): kept as its text either way (`JSONReader.lenientText`).
struct LenientValue: Hashable {
    let text: String

    /// The value as an integer; nil when it is not one ("", "abc").
    var int: Int? {
        // Most values are plain digits: the trimming below (Foundation's) costs more than the rest.
        if let plain = Int(text) { return plain }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return Int(trimmed) ?? Double(trimmed).flatMap { $0.isFinite && $0 == $0.rounded() ? Int(exactly: $0) : nil }
    }

    /// The value as a number; nil when it is not one.
    var double: Double? {
        (Double(text) ?? Double(text.trimmingCharacters(in: .whitespaces))).flatMap { $0.isFinite ? $0 : nil }
    }
}
