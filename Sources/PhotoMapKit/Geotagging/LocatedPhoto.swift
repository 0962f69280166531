// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// A location a track or a neighbour gives a photo, with the place it joins; or, with no coordinate, the
/// location tracks gave it before taken away (it joins the photos without a location).
public struct LocatedPhoto: Sendable {
    public let id: String
    public let coordinate: Coordinate?
    public let place: LocalPlace
    public let source: LocationSource?
    /// Of an estimate: the seconds to the photo it was taken from.
    public let estimateOffset: Int?

    /// `photo`'s record as this location makes it.
    func applied(to photo: Photo) -> Photo {
        var photo = photo
        photo.coordinate = coordinate
        photo.placeID = place.id
        photo.locationSource = source
        photo.estimateOffset = source == .estimated ? estimateOffset : nil
        return photo
    }
}
