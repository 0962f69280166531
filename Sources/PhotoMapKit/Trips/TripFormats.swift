// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// `trips` and `visited` in open formats: JSON, RFC 4180 CSV (as `CSVFormatter` writes cells) and
/// GeoJSON. Routes in CSV and GeoJSON, which go to others, stop `homeMargin` kilometres before home and
/// outside every fence; home is named only in JSON, which is the owner's.
public enum TripFormats {
    /// How far from home shared routes stop, in kilometres.
    public static let homeMargin = 1.0

    /// A trip as JSON and GeoJSON give it.
    struct TripFields: Encodable {
        let id, name, from, to: String
        let days, photos: Int
        let km: Double
        let countries: [String]

        init(_ trip: Trip) {
            id = trip.id
            name = trip.name
            from = trip.from
            to = trip.to
            days = trip.days
            photos = trip.photos.count
            km = (trip.kilometres * 10).rounded() / 10
            countries = trip.countries
        }
    }

    /// Home as JSON gives it.
    struct HomeFields: Encodable {
        let latitude, longitude: Double
        let name: String
    }

    /// `trips --format json`: the home used and the trips, newest first.
    public static func json(_ trips: [Trip], home: Home) throws -> String {
        struct Document: Encodable {
            let home: HomeFields
            let trips: [TripFields]
        }
        return try JSONOutput.prettyText(
            Document(
                home: HomeFields(
                    latitude: home.coordinate.latitude, longitude: home.coordinate.longitude, name: home.name),
                trips: trips.map(TripFields.init)))
    }

    /// `trips --format csv`: a row per trip; countries joined by "; ".
    public static func csv(_ trips: [Trip]) -> String {
        let header = ["id", "name", "from", "to", "days", "photos", "km", "countries"].map {
            OutputRecord.Value.text($0)
        }
        let rows = trips.map { trip -> [OutputRecord.Value] in
            [
                .text(trip.id), .text(trip.name), .text(trip.from), .text(trip.to), .integer(trip.days),
                .integer(trip.photos.count), .number((trip.kilometres * 10).rounded() / 10),
                .text(trip.countries.joined(separator: "; ")),
            ]
        }
        return ([header] + rows).map { $0.map(CSVFormatter.cell).joined(separator: ",") + "\r\n" }.joined()
    }

    /// `trips --format geojson`: a feature per trip with a route to draw — a LineString, or a
    /// MultiLineString where home or a fence broke it — and the trip's fields as properties.
    public static func geojson(_ trips: [Trip], home: Home, fences: [Geofence]) throws -> String {
        struct Geometry: Encodable {
            let type: String
            let coordinates: AnyLines
        }
        struct Feature: Encodable {
            var type = "Feature"
            let geometry: Geometry?
            let properties: TripFields
        }
        struct Collection: Encodable {
            var type = "FeatureCollection"
            let features: [Feature]
        }
        let features = trips.map { trip in
            let parts = trip.shownRoute(home: home.coordinate, margin: homeMargin, fences: fences).map { part in
                part.map { [($0.longitude * 1e6).rounded() / 1e6, ($0.latitude * 1e6).rounded() / 1e6] }
            }
            let geometry: Geometry? =
                switch parts.count {
                case 0: nil
                case 1: Geometry(type: "LineString", coordinates: .line(parts[0]))
                default: Geometry(type: "MultiLineString", coordinates: .lines(parts))
                }
            return Feature(geometry: geometry, properties: TripFields(trip))
        }
        return try JSONOutput.prettyText(Collection(features: features))
    }

    /// A LineString's positions or a MultiLineString's lines.
    enum AnyLines: Encodable {
        case line([[Double]])
        case lines([[[Double]]])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .line(let points): try container.encode(points)
            case .lines(let lines): try container.encode(lines)
            }
        }
    }

    /// A place of `visited` as JSON gives it: regions of a country, towns of a region.
    struct VisitedFields: Encodable {
        /// The id of a country's or region's page (`/visited/ID`); absent for a town.
        let id: String?
        let name: String
        let photos, days: Int
        let first, last: String
        /// The id of its cover photo.
        let cover: String
        let regions: [VisitedFields]?
        let towns: [VisitedFields]?

        init(_ place: VisitedPlace, depth: Int) {
            id = place.pageID
            name = place.name
            photos = place.photos
            days = place.days
            first = place.first
            last = place.last
            cover = place.cover.id
            let children = place.children.map { VisitedFields($0, depth: depth + 1) }
            regions = depth == 0 ? children : nil
            towns = depth == 1 ? children : nil
        }
    }

    /// `visited --format json`: the countries, each with its regions, each with its towns.
    public static func json(_ visited: [VisitedPlace]) throws -> String {
        try JSONOutput.prettyText(visited.map { VisitedFields($0, depth: 0) })
    }

    /// `visited --format csv`: a row per country, region and town, its country and region named, and a
    /// country's or region's page id (empty for a town).
    public static func csv(_ visited: [VisitedPlace]) -> String {
        var rows: [[OutputRecord.Value]] = [
            ["country", "region", "town", "photos", "days", "first", "last", "cover", "id"].map { .text($0) }
        ]
        func add(_ place: VisitedPlace, path: [String]) {
            let names = path + [place.name]
            rows.append(
                (0..<3).map { .text($0 < names.count ? names[$0] : "") }
                    + [
                        .integer(place.photos), .integer(place.days), .text(place.first), .text(place.last),
                        .text(place.cover.id), .text(place.pageID ?? ""),
                    ])
            for child in place.children { add(child, path: names) }
        }
        for country in visited { add(country, path: []) }
        return rows.map { $0.map(CSVFormatter.cell).joined(separator: ",") + "\r\n" }.joined()
    }
}
