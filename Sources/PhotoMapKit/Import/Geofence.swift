// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// A circle within which imported photos are shown without a location (Flickr's geofences): to anyone
/// but their owner, a photo taken at home is one "without a location".
public struct Geofence: Sendable, Hashable, Codable {
    /// The name the owner gave it ("home").
    public var name: String
    /// Its centre.
    public var centre: Coordinate
    /// Its radius in metres, within `Geofence.radii`.
    public var radius: Double

    /// The radii a fence may have, in metres, as Flickr allows.
    public static let radii: ClosedRange<Double> = 50...10_000

    /// A fence named `name` of `radius` metres around `centre`.
    public init(name: String, centre: Coordinate, radius: Double) {
        self.name = name
        self.centre = centre
        self.radius = radius
    }

    /// Whether `coordinate` lies within the fence (on its edge included).
    public func contains(_ coordinate: Coordinate) -> Bool {
        // A degree of latitude is 111 km everywhere: most points are ruled out before the trigonometry.
        guard abs(coordinate.latitude - centre.latitude) * 111_195 <= radius else { return false }
        return coordinate.distance(to: centre) * 1000 <= radius
    }
}

extension Geofence {
    /// A fenced photo as others see it: no coordinate, no place finer than "without a location".
    static func withoutLocation(_ photo: Photo) -> Photo {
        var photo = photo
        photo.coordinate = nil
        photo.locationSource = nil
        photo.placeID = LocalPlace.unlocatedID
        return photo
    }
}

extension [Geofence] {
    /// Whether any of the fences holds `coordinate`.
    public func hide(_ coordinate: Coordinate?) -> Bool {
        guard let coordinate else { return false }
        return contains { $0.contains(coordinate) }
    }

    /// The photo as others may see it: without its location (and listed with the photos without one)
    /// when a fence holds it. Only imported photos are fenced (Flickr hides what its owners fenced before
    /// it answers).
    public func shown(_ photo: Photo) -> Photo {
        guard LocalPhotoID.isValid(photo.id), hide(photo.coordinate) else { return photo }
        return Geofence.withoutLocation(photo)
    }

    /// Where a place is shown: its own centre (a city's), else the mean of its photos others see, unless a
    /// fence holds it (a town's centre may lie in a fence around a home).
    func shownCentre(own: Coordinate?, mean: Coordinate?) -> Coordinate? {
        if let own, !hide(own) { return own }
        return mean.flatMap { hide($0) ? nil : $0 }
    }

    /// The ids of the located photos `located` (id, coordinate) that a fence holds.
    func hiddenIDs(_ located: [(id: String, coordinate: Coordinate)]) -> Set<String> {
        guard !isEmpty else { return [] }
        return Set(located.lazy.filter { hide($0.coordinate) }.map(\.id))
    }
}
