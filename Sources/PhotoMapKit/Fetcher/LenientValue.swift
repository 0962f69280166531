import Foundation

/// A JSON value Flickr sends as a string in one answer and a number in the next
/// (`"pages":"40671"` beside `"perpage":5`): decoded as its text either way, never failing.
struct LenientValue: Decodable, Hashable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            text = string
        } else if let integer = try? container.decode(Int64.self) {
            text = String(integer)
        } else if let number = try? container.decode(Double.self) {
            text = String(number)
        } else if let flag = try? container.decode(Bool.self) {
            text = flag ? "1" : "0"
        } else {
            // null, or an object or array where a value belongs: no value, rather than a lost record.
            text = ""
        }
    }

    /// The value as an integer; nil when it is not one ("", "abc").
    var int: Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return Int(trimmed) ?? Double(trimmed).flatMap { $0.isFinite && $0 == $0.rounded() ? Int(exactly: $0) : nil }
    }

    /// The value as a number; nil when it is not one.
    var double: Double? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
    }
}

/// An array whose malformed elements are skipped and reported instead of failing the whole answer.
struct LossyArray<Element: Decodable>: Decodable {
    var elements: [Element] = []
    /// One line per skipped element: its position and what was wrong.
    var skipped: [String] = []

    init() {}

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            let position = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                skipped.append("item \(position + 1): \(FlickrError.describe(decodingError: error))")
                // A failed decode does not advance the container; consume the element as anything.
                guard (try? container.decode(SkippedValue.self)) != nil else { break }
            }
        }
    }
}

/// Accepts any JSON value, so a bad array element can be stepped over.
private struct SkippedValue: Decodable {
    init(from decoder: any Decoder) throws {}
}

