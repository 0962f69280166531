// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// A named point a typed query can find: a city, a village, a catalog place or a landmark.
public struct GazetteerEntry: Sendable, Hashable {
    /// What kind of point it is, which decides the annotation's title.
    public enum Kind: String, Sendable {
        /// A GeoNames city (cities.tsv: 15,000 people or more, and a few capitals).
        case city
        /// A GeoNames place of 1,000 to 14,999 people (villages.tsv). `find` ranks it after any city,
        /// landmark or place the query matches, so a name it shares with a city stays the city's.
        case village
        /// A place of the catalog (Flickr's top places).
        case place
        /// A landmark (an area of interest: a building, a bridge, a park).
        case landmark
    }

    public var kind: Kind
    /// An id for output: the GeoNames id, place id or landmark name.
    public var id: String
    public var name: String
    public var alternates: [String]
    public var coordinate: Coordinate
    /// ISO 3166-1 alpha-2 country code ("" when unknown).
    public var country: String
    /// The first-level subdivision code (GeoNames admin1, e.g. "TX").
    public var admin1: String
    /// Residents, for ranking cities; landmarks and places get an importance of their own.
    public var population: Int
    /// Street and number, for landmarks that have one.
    public var street: String
    /// The city it is in, for landmarks.
    public var locality: String
    /// Country, region or city names to show beside it.
    public var context: String
    /// Places: Flickr's place type (7 locality, 8 region, 12 country, …), for their importance.
    public var placeTypeID: Int?

    /// A Flickr place as a location: "Paris, Ile-de-France, France" is the locality Paris in
    /// "Ile-de-France, France". Nil without a coordinate.
    public init?(place: Place) {
        guard let coordinate = place.coordinate else { return nil }
        let parts = place.fullName.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        self.init(
            kind: .place, id: place.id, name: parts.first ?? place.fullName,
            alternates: place.shortName.isEmpty ? [] : [place.shortName], coordinate: coordinate,
            population: place.photoCount ?? 0, locality: parts.first ?? "",
            context: parts.dropFirst().joined(separator: ", "))
        placeTypeID = place.typeID
    }

    /// Creates an entry.
    public init(
        kind: Kind, id: String, name: String, alternates: [String] = [], coordinate: Coordinate,
        country: String = "", admin1: String = "", population: Int = 0, street: String = "",
        locality: String = "", context: String = ""
    ) {
        self.kind = kind
        self.id = id
        self.name = name
        self.alternates = alternates
        self.coordinate = coordinate
        self.country = country
        self.admin1 = admin1
        self.population = population
        self.street = street
        self.locality = locality
        self.context = context
    }
}
