// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

extension TripFormats {
    /// A visited country or region as GeoJSON's properties give it.
    struct VisitedAreaFields: Encodable {
        /// "country" or "region".
        let level: String
        /// The id of its page (`/visited/ID`).
        let id: String?
        let name: String
        /// A region's country; absent for a country.
        let country: String?
        let photos, days: Int
        let first, last, cover: String

        init(_ area: VisitedOutlines.Area) {
            level = area.country == nil ? "country" : "region"
            id = area.place.pageID
            name = area.place.name
            country = area.country
            photos = area.place.photos
            days = area.place.days
            first = area.place.first
            last = area.place.last
            cover = area.place.cover.id
        }
    }

    /// `visited --format geojson`: a feature per country, then one per each of its regions, with its
    /// outline as a MultiPolygon (null where no outline was found) and its fields as properties; on one
    /// line, as outlines indented a number a line would be tens of thousands of lines.
    public static func geojson(_ areas: [VisitedOutlines.Area]) throws -> String {
        struct Geometry: Encodable {
            var type = "MultiPolygon"
            let coordinates: [[[[Double]]]]
        }
        struct Feature: Encodable {
            var type = "Feature"
            let geometry: Geometry?
            let properties: VisitedAreaFields

            enum CodingKeys: String, CodingKey { case type, geometry, properties }

            // A feature without an outline says so with null, as RFC 7946 asks, rather than leaving it out.
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(type, forKey: .type)
                try container.encode(geometry, forKey: .geometry)
                try container.encode(properties, forKey: .properties)
            }
        }
        struct Collection: Encodable {
            var type = "FeatureCollection"
            let features: [Feature]
        }
        return try JSONOutput.text(
            Collection(
                features: areas.map { area in
                    Feature(
                        geometry: area.polygons.isEmpty ? nil : Geometry(coordinates: area.polygons),
                        properties: VisitedAreaFields(area))
                }))
    }
}
