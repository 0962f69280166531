// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

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

extension LenientValue: Codable {
    /// A string's text, a number as `JSONReader.lenientText` gives it (an integer without ".0"), true and
    /// false as "1" and "0": the embedded catalog's records, read with JSONDecoder.
    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let string = try? value.decode(String.self) {
            text = string
        } else if let integer = try? value.decode(Int64.self) {
            text = String(integer)
        } else if let number = try? value.decode(Double.self) {
            text =
                number == number.rounded() ? Int64(exactly: number).map(String.init) ?? String(number) : String(number)
        } else {
            text = try value.decode(Bool.self) ? "1" : "0"
        }
    }

    /// As a string, which Flickr's readers take wherever it sends a number.
    func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        try value.encode(text)
    }
}
