// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// A photo as trips and `visited` see it: its own local day, when it was taken, where, and the names of
/// the place it belongs to.
public struct TripPhoto: Sendable, Hashable {
    /// The photo's id.
    public var id: String
    /// "YYYY-MM-DD HH:MM:SS" as the camera's clock read it: the photo's own local time, whatever zone
    /// the catalog is read in.
    public private(set) var taken: String
    /// Days since 1970-01-01 of its local date: read once, as trips and `visited` ask for it per photo.
    let day: Int
    /// Where it was taken; nil without a location.
    public var coordinate: Coordinate?
    /// "Arezzo"; nil for a photo in no town (at sea, or far from any).
    public var town: String?
    /// "Tuscany"; nil where the place names no division.
    public var division: String?
    /// "Italy"; nil at sea or without a location.
    public var country: String?
    /// The centre of its town, as the gazetteer has it; nil when it is in no town.
    public var townCentre: Coordinate?
    /// The id of the place it is in (its page's); nil where its place is not shown.
    public var place: String?

    /// A photo; nil unless `taken` begins with a valid "YYYY-MM-DD" date.
    public init?(
        id: String, taken: String, coordinate: Coordinate?, town: String? = nil, division: String? = nil,
        country: String? = nil, townCentre: Coordinate? = nil, place: String? = nil
    ) {
        guard let day = Self.dayNumber(of: taken) else { return nil }
        self.id = id
        self.taken = taken
        self.day = day
        self.coordinate = coordinate
        self.town = town
        self.division = division
        self.country = country
        self.townCentre = townCentre
        self.place = place
    }

    /// A photo named by its place's names (`named`, nil where its place is not shown; `place` its id): its
    /// town's centre only with a town, its place's id only where the place names a country.
    init?(id: String, taken: String, coordinate: Coordinate?, named: PlaceNames?, place: String) {
        self.init(
            id: id, taken: taken, coordinate: coordinate, town: named?.town, division: named?.division,
            country: named?.country, townCentre: named?.town == nil ? nil : named?.centre,
            place: named?.country == nil ? nil : place)
    }

    /// "YYYY-MM-DD": the local date, the day the photo belongs to.
    public var date: String { String(taken.prefix(10)) }

    /// Days since 1970-01-01 of "YYYY-MM-DD…", or nil: read from the bytes, as it is read for every photo.
    package static func dayNumber(of text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
            return CivilDate.daysSince1970(year: year, month: month, day: day)
        }
    }

    /// The imported photos with a time taken, named by their places (the catalog's `places()`): a town's
    /// full name is "Town, Division, Country", a division's ("region_…") "Division, Country", a country's
    /// ("country_…") "Country"; a square at sea ("area_…") names nothing.
    public static func photos(_ photos: [Photo], places: [Place]) -> [TripPhoto] {
        let names = Dictionary(places.map { ($0.id, PlaceNames($0)) }, uniquingKeysWith: { first, _ in first })
        return photos.compactMap { photo in
            guard let taken = photo.dateTaken else { return nil }
            return TripPhoto(
                id: photo.id, taken: taken, coordinate: photo.coordinate, named: names[photo.placeID],
                place: photo.placeID)
        }
    }
}

/// A place's name split into town, division and country by the kind of place its id says it is.
struct PlaceNames {
    var town: String?
    var division: String?
    var country: String?
    var centre: Coordinate?

    init(_ place: Place) {
        centre = place.coordinate
        let parts = place.fullName.components(separatedBy: ", ")
        if place.id.hasPrefix("area_") || place.id == LocalPlace.unlocatedID { return }
        country = parts.last
        if place.id.hasPrefix("country_") { return }
        if place.id.hasPrefix("region_") {
            division = parts.count >= 2 ? parts[parts.count - 2] : place.shortName
            return
        }
        town = place.shortName.isEmpty ? parts.first : place.shortName
        // "Singapore, Singapore": a town of no division has its country alone after its name.
        division = parts.count >= 3 ? parts[parts.count - 2] : nil
    }
}
