// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel
import PhotoMapSupport

extension Photo {
    /// What a callout and a photo page say of where the location came from: "located from a track",
    /// "estimated from a photo taken 4 minutes earlier", "location set by hand"; nil for a photo's own GPS
    /// (or none).
    public var locationNote: String? {
        switch locationSource {
        case .track?: return "located from a track"
        case .estimated?:
            return "estimated from " + (estimateOffset.map(Self.neighbour) ?? "a photo taken near in time")
        case .manual?: return coordinate == nil ? "location removed by hand" : "location set by hand"
        case .sidecar?: return "location from its XMP sidecar"
        case .exif?, nil: return nil
        }
    }

    /// "a photo taken 4 minutes earlier", "… 2 hours later", "… at the same time", for `seconds` from this
    /// photo to that one.
    static func neighbour(_ seconds: Int) -> String {
        let apart = abs(seconds)
        let side = seconds < 0 ? "earlier" : "later"
        let minutes = (apart + 30) / 60
        if apart == 0 { return "a photo taken at the same time" }
        if minutes == 0 { return "a photo taken \(Quantity.words(apart, "second", "seconds")) \(side)" }
        if minutes < 120 { return "a photo taken \(Quantity.words(minutes, "minute", "minutes")) \(side)" }
        return "a photo taken \(Quantity.words((minutes + 30) / 60, "hour", "hours")) \(side)"
    }
}
