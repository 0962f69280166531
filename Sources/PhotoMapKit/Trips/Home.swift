// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// The point trips are measured from, and the name it is shown with.
public struct Home: Sendable, Hashable {
    /// Where home is.
    public var coordinate: Coordinate
    /// "Ljubljana, Slovenia", or the coordinate as text when no photo's place is near.
    public var name: String
    /// Home's country; nil when unknown (then only the distance decides whether a photo is at home).
    public var country: String?

    /// A home.
    public init(coordinate: Coordinate, name: String, country: String?) {
        self.coordinate = coordinate
        self.name = name
        self.country = country
    }

    /// Home at `coordinate` (`--home`, or a fence named "home"), named by the town of the located photo
    /// nearest to it (of two as near, the lesser id) when that photo is within `reach` kilometres, else by
    /// the coordinate.
    public static func at(_ coordinate: Coordinate, photos: [TripPhoto], reach: Double) -> Home {
        var nearest: (photo: TripPhoto, distance: Double)?
        for photo in photos {
            guard let point = photo.coordinate else { continue }
            let distance = point.distance(to: coordinate)
            if let found = nearest, (found.distance, found.photo.id) <= (distance, photo.id) { continue }
            nearest = (photo, distance)
        }
        let text = String(format: "%.4f,%.4f", coordinate.latitude, coordinate.longitude)
        guard let (photo, distance) = nearest, distance <= reach else {
            return Home(coordinate: coordinate, name: text, country: nil)
        }
        return Home(coordinate: coordinate, name: photo.placeName ?? text, country: photo.country)
    }

    /// The town where the photos fall on the most distinct days (ties: more photos, then the name), at
    /// its centre (else the mean of its photos); nil when no photo is in a town.
    public static func mostDays(_ photos: [TripPhoto]) -> Home? {
        struct Tally {
            var days: Set<Int> = []
            var photos = 0
            var latitude = 0.0, longitude = 0.0
            var country: String?
            var centre: Coordinate?
            var name: String?
        }
        // Tallied by place first (its id, read with the photo; its name where it has none), then by name:
        // the name is made once a place, not once a photo. A name's country and centre are its last photo's.
        var byID: [String: Int] = [:]
        var byName: [String: Int] = [:]
        var places: [(tally: Tally, last: Int)] = []
        for (index, photo) in photos.enumerated() {
            guard photo.town != nil, let point = photo.coordinate else { continue }
            let id = photo.place, name = id == nil ? photo.placeName : nil
            guard id != nil || name != nil else { continue }
            let slot = id.flatMap { byID[$0] } ?? name.flatMap { byName[$0] } ?? places.count
            if slot == places.count {
                if let id { byID[id] = slot } else if let name { byName[name] = slot }
                places.append((Tally(name: photo.placeName), index))
            }
            places[slot].last = index
            places[slot].tally.days.insert(photo.day)
            places[slot].tally.photos += 1
            places[slot].tally.latitude += point.latitude
            places[slot].tally.longitude += point.longitude
            places[slot].tally.country = photo.country
            places[slot].tally.centre = photo.townCentre
        }
        var towns: [String: Tally] = [:]
        for place in places.sorted(by: { $0.last < $1.last }) {
            guard let name = place.tally.name else { continue }
            var town = towns[name] ?? Tally()
            town.days.formUnion(place.tally.days)
            town.photos += place.tally.photos
            town.latitude += place.tally.latitude
            town.longitude += place.tally.longitude
            town.country = place.tally.country
            town.centre = place.tally.centre
            towns[name] = town
        }
        let best = towns.max { a, b in
            (a.value.days.count, a.value.photos, b.key) < (b.value.days.count, b.value.photos, a.key)
        }
        guard let (name, tally) = best,
            let centre = tally.centre
                ?? Coordinate(
                    latitude: tally.latitude / Double(tally.photos), longitude: tally.longitude / Double(tally.photos))
        else { return nil }
        return Home(coordinate: centre, name: name, country: tally.country)
    }
}

extension TripPhoto {
    /// "Arezzo, Tuscany, Italy": the town with its division and country, as far as they are known; a
    /// division named as its town is said once ("Ljubljana, Slovenia").
    var placeName: String? {
        let parts = [town, division == town ? nil : division, country].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
