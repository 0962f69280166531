// SPDX-License-Identifier: Apache-2.0
import PhotoMapSupport

/// What a page's subtitle says: how many it shows ("214 photos", or "100 of 214 photos" when its source
/// holds more than it shows), then the place's own subtitle, joined by " · " only where both are said.
public enum PageSubtitle {
    /// "214 photos · Ile-de-France, France"; "100 of 214 photos" when `total` exceeds `shown`; no
    /// separator when `detail` is empty or nil.
    public static func photos(shown: Int, total: Int?, detail: String?) -> String {
        joined([count(shown: shown, total: total, one: "photo", many: "photos"), detail])
    }

    /// "214 photos", or "100 of 214 photos" when `total` exceeds `shown`.
    public static func count(shown: Int, total: Int?, one: String, many: String) -> String {
        guard let total, total > shown else { return Quantity.words(shown, one, many) }
        return "\(shown) of \(Quantity.words(total, one, many))"
    }

    /// The parts that say something, joined by " · ".
    public static func joined(_ parts: [String?]) -> String {
        parts.compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " · ")
    }
}
