// SPDX-License-Identifier: Apache-2.0
/// Who the data on a page comes from, credited in its footer with the map's own sources, and the
/// notice Flickr's API terms ask every application to carry.
public struct PageCredits: Sendable, Hashable {
    /// A source of the records a page shows.
    public enum Source: Sendable, Hashable, CaseIterable {
        /// Places and photos from Flickr's API.
        case flickr
        /// photomap's embedded catalog: invented photos around cities placed by GeoNames.
        case catalog
        /// Place names and positions from GeoNames (the offline gazetteer).
        case geonames
        /// The user's own photos, read by `photomap import` and grouped into GeoNames places.
        case local
    }

    /// The notice Flickr's API terms ask for, word for word.
    public static let flickrNotice =
        "This product uses the Flickr API but is not endorsed or certified by SmugMug, Inc."

    /// The sources of the page's records.
    public let sources: Set<Source>

    /// Credits for records from `sources`.
    public init(_ sources: Set<Source>) {
        self.sources = sources
    }

    /// The footer's lines: the records' sources, the map's, then Flickr's notice.
    public var lines: [String] {
        var data: [String] = []
        let geonames = "Place names: GeoNames (geonames.org), CC BY 4.0."
        if sources.contains(.flickr) {
            data.append("Photos and places: Flickr (flickr.com), each photo © its owner under the licence shown.")
        }
        if sources.contains(.catalog) {
            data.append("Photos: photomap's sample catalog (invented); city positions: GeoNames (CC BY 4.0).")
        }
        if sources.contains(.local) { data.append("Photos: your own, imported with photomap.") }
        let namesPlaces = sources.contains(.geonames) || sources.contains(.local)
        if namesPlaces && !sources.contains(.catalog) { data.append(geonames) }
        // Maps name GeoNames places (PlaceLabels) whatever the records' source; CC BY asks for the credit.
        let places = sources.contains(.catalog) || namesPlaces ? "" : " " + geonames
        let map =
            "Outlines: Natural Earth (public domain); coasts: GSHHG, Wessel and Smith (LGPL).\(places) Tiles when online: © OpenStreetMap contributors. Map: Leaflet."
        return [data.joined(separator: " "), map, Self.flickrNotice].filter { !$0.isEmpty }
    }
}
