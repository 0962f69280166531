// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// The country and first-level division a point lies in, from their boundaries: the polygons that
/// contain it, or for a point just off a coast the nearest within `coastReach`. The division is looked
/// for among the country's own, so the coarser division outlines never override the country's border.
public struct BoundaryLookup: Sendable {
    /// Where a point lies: its country, and its division when one is found.
    public struct Location: Sendable, Hashable {
        public var country: Boundaries.Region
        public var division: Boundaries.Region?
    }

    /// How far off a coast (a harbour, a beach) a point still takes the nearest country, in kilometres.
    public static let coastReach = 5.0
    /// How far outside its divisions' outlines a point of a country still takes the nearest: the division
    /// layer is generalised (its borders a few km off the countries'), in kilometres.
    static let divisionReach = 25.0

    let countries: BoundaryIndex
    let divisions: BoundaryIndex

    /// Prepares both layers.
    public init(_ boundaries: Boundaries) {
        countries = BoundaryIndex(boundaries.countries)
        divisions = BoundaryIndex(boundaries.divisions)
    }

    /// Both layers, indexed already (as the prebuilt place data holds them).
    init(countries: BoundaryIndex, divisions: BoundaryIndex) {
        self.countries = countries
        self.divisions = divisions
    }

    /// Where `coordinate` lies; nil out at sea (farther than `coastReach` from every country).
    public func locate(_ coordinate: Coordinate) -> Location? {
        guard
            let countryIndex = countries.region(containing: coordinate)
                ?? countries.nearestRegion(to: coordinate, within: Self.coastReach)?.region
        else { return nil }
        let country = countries.regions[countryIndex]
        let regions = divisions.regions
        let sameCountry = { (index: Int) in regions[index].country == country.country }
        let division =
            divisions.region(containing: coordinate, where: sameCountry)
            ?? divisions.nearestRegion(to: coordinate, within: Self.divisionReach, where: sameCountry)?.region
        return Location(country: country, division: division.map { regions[$0] })
    }
}
