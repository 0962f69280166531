// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

extension Coordinate {
    /// The coordinate of a Flickr record, or nil for none: Flickr sends a photo or place without geo as
    /// exactly (0, 0), so in its answers (and only there) that point means "no coordinate".
    static func flickr(latitude: Double?, longitude: Double?) -> Coordinate? {
        latitude == 0 && longitude == 0 ? nil : Coordinate(latitude: latitude, longitude: longitude)
    }
}
