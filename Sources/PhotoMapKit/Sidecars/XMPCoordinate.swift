// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A latitude or longitude as XMP's exif namespace writes it: "DDD,MM.mmmmmmK" (degrees, decimal minutes)
/// or "DDD,MM,SSK" (degrees, minutes, seconds), K one of N, S (latitudes) or E, W (longitudes).
enum XMPCoordinate {
    /// Which of the two a value is, for its hemisphere letters and range.
    enum Axis {
        case latitude, longitude

        var positive: Character { self == .latitude ? "N" : "E" }
        var negative: Character { self == .latitude ? "S" : "W" }
        var limit: Double { self == .latitude ? 90 : 180 }
    }

    /// Millionths of a minute: about 2 mm, far finer than the 1e-6° a reader must get back.
    private static let steps = 1_000_000

    /// "46,21.75N" for 46.3625 as a latitude: whole degrees, then minutes with up to six decimals (no
    /// trailing zeros), then the hemisphere.
    static func text(_ degrees: Double, _ axis: Axis) -> String {
        let total = Int((abs(degrees) * 60 * Double(steps)).rounded())
        let whole = total / (60 * steps)
        let minutes = total % (60 * steps)
        var fraction = String(minutes % steps)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let hemisphere = degrees < 0 && total > 0 ? axis.negative : axis.positive
        return "\(whole),\(minutes / steps)\(fraction.isEmpty ? "" : "." + fraction)\(hemisphere)"
    }

    /// The signed degrees of "46,21.75N", "46,21,45N" or a plain signed decimal ("46.3625"), or nil when
    /// the text is none of these or lies outside the axis's range.
    static func degrees(_ text: String, _ axis: Axis) -> Double? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        var sign = 1.0
        if let last = body.last?.uppercased().first, last == axis.positive || last == axis.negative {
            sign = last == axis.negative ? -1 : 1
            body = body.dropLast()
        } else if let last = body.last, last.isLetter {
            return nil
        }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var values: [Double] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
                let value = Double(part), value.isFinite
            else { return nil }
            values.append(value)
        }
        // Minutes and seconds are below 60 and never signed; a sign goes on the degrees of a plain decimal.
        if values.count > 1 {
            guard values.allSatisfy({ $0 >= 0 }), values.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        } else if values[0] < 0, sign < 0 {
            return nil
        }
        let magnitude = values.enumerated().reduce(0.0) { sum, part in sum + part.element / pow(60, Double(part.offset))
        }
        let result = sign * magnitude
        guard abs(result) <= axis.limit else { return nil }
        return result
    }
}
