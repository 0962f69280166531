// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// The annotations a page embeds, with what the page script needs besides: the placeholder image,
/// the span around a lone annotation, the places named around them. Its features are GeoJSON
/// (RFC 7946) for the server's API; a page carries them as columns (`PageEntries`), compact enough
/// for 10,000 photos.
public struct MapData: Encodable, Sendable {
    /// One annotation: a point (or none, for records without a coordinate) and its callout's content,
    /// encoded as a GeoJSON Feature.
    public struct Feature: Encodable, Sendable {
        /// The callout's content.
        public struct Properties: Encodable, Sendable {
            public var kind: String
            public var id: String
            public var title: String
            public var subtitle: String
            /// The square's path relative to the page, or nil (the callout shows the placeholder).
            public var thumbnail: String?
            /// The disclosure: a relative path or an http(s) URL.
            public var link: String?
            /// Places: their photo count.
            public var count: Int?
            /// Photos: the owner's name.
            public var owner: String?
            /// Photos: the licence's name.
            public var license: String?
            /// Photos: the licence's deed, an http(s) URL.
            public var licenseURL: String?
            /// Photos: the photo's page on Flickr, which Flickr's rules ask every shown photo to link to.
            public var flickr: String?
            /// Photos: where the location came from, when not the photo's own GPS ("located from a track").
            public var locationNote: String?

            /// The same bytes as `HTML.scriptJSON(self)` (keys sorted, absent ones left out), written directly.
            func write(to json: inout ScriptJSON) {
                var first = true
                func text(_ name: StaticString, _ value: String?) {
                    guard let value else { return }
                    json.key(name, first: &first)
                    json.string(value)
                }
                if let count {
                    json.key("count", first: &first)
                    json.number(count)
                }
                text("flickr", flickr)
                text("id", id)
                text("kind", kind)
                text("license", license)
                text("licenseURL", licenseURL)
                text("link", link)
                text("locationNote", locationNote)
                text("owner", owner)
                text("subtitle", subtitle)
                text("thumbnail", thumbnail)
                text("title", title)
                json.raw("}")
            }
        }

        /// A GeoJSON Point.
        public struct Point: Encodable, Sendable {
            public var type = "Point"
            /// Longitude, latitude: GeoJSON's order.
            public var coordinates: [Double]
        }

        public var type = "Feature"
        public var geometry: Point?
        public var properties: Properties
        /// The month it was taken (`MonthTaken`), for the page's timeline; not part of the GeoJSON.
        public var month: Int?

        /// A feature for an annotation.
        public init(_ annotation: Annotation, thumbnail: String?, link: String?) {
            geometry = annotation.coordinate.map { Point(coordinates: [$0.longitude, $0.latitude]) }
            properties = Properties(
                kind: annotation.kind.rawValue, id: annotation.id, title: annotation.title,
                subtitle: annotation.subtitle, thumbnail: thumbnail, link: link,
                count: annotation.photoCount,
                owner: annotation.owner.flatMap { $0.isEmpty ? nil : $0 },
                license: annotation.license?.displayName,
                licenseURL: annotation.license?.url.flatMap(HTML.webURL),
                flickr: annotation.pageURL.flatMap(HTML.webURL), locationNote: annotation.locationNote)
            month = MonthTaken.index(annotation.dateTaken)
        }

        public func encode(to encoder: any Encoder) throws {
            enum Keys: String, CodingKey { case type, geometry, properties }
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(type, forKey: .type)
            // GeoJSON wants "geometry": null, not a missing key, for unlocated features.
            try container.encode(geometry, forKey: .geometry)
            try container.encode(properties, forKey: .properties)
        }
    }

    /// Where a pre-clustered page's tiles and list files are, and which tiles exist (pages above
    /// `SiteBuilder.clusterThreshold`).
    public struct ClusterIndex: Encodable, Sendable {
        /// The tiles' folder, relative to the page: `{folder}/{z}/{x}/{y}.js`.
        public var folder: String
        /// The list files' folder, relative to the page: `{lists}/{n}.js` holds entries from `n × listChunk`
        /// on (`PageEntries.chunkScript`); the page itself holds the first `listChunk`.
        public var lists: String
        /// How many entries each list file holds.
        public var listChunk: Int
        /// The last zoom with its own tiles.
        public var maxZoom: Int
        /// The tiles that exist, "x/y" by zoom; nil on the map of everything, which tells them by
        /// `occupied` and `occupiedFiles` instead.
        public var tiles: [String: [String]]?
        /// South-west and north-east corners of all annotations, [[lat, lon], [lat, lon]].
        public var bounds: [[Double]]
        /// Every annotation, located or not, for the page's count.
        public var total: Int
        /// The map of everything's tiles that exist at zooms 0 on, as bitmaps (`TileOccupancy.bitmap`).
        public var occupied: [String]?
        /// The folder, relative to the page, of its deeper zooms' `{z}.js` (`TileOccupancy.script`).
        public var occupiedFiles: String?
        /// The timeline's step over all the page's photos (`MonthTaken.step`): the page holds only some.
        public var monthStep = 1
        /// Photos taken in each step (`MonthTaken.histogram` of their steps' first months), for the
        /// timeline's bars.
        public var months: [Int] = []
        /// The same for each list file (the page's own entries first), so that a range's entries are
        /// found without loading every file.
        public var listMonths: [[Int]] = []
    }

    /// One day of a trip's page: its own small map (`photomap-trip.js`), with the day's way and photos.
    public struct DayMap: Encodable, Sendable {
        /// The id of the element the map goes in.
        public var map: String
        /// The day's way, drawn under its photos; nil for none.
        public var tracks: TrackDrawing?
        /// The day's located photos, by their place among the page's entries.
        public var entries: [Int]
    }

    public var features: [Feature]
    /// The clustering rule, for a page that clusters its own annotations as `SiteBuilder` pre-clusters.
    public let cluster = GridClusterer()
    /// Set for pre-clustered pages: the map loads tiles instead of `features`.
    public var clusters: ClusterIndex?
    /// The placeholder image's path relative to the page.
    public var placeholder: String
    /// Degrees shown around a lone annotation, or around `focus` (MapKit's region span).
    public var span: Double
    /// Where the first view is centred (`find`); nil to fit every annotation.
    public var focus: [Double]?

    /// Places near the annotations, most populous first, named on the map where the outline is too coarse.
    public var labels: [PlaceLabels.Label] = []
    /// The imported photos' GPS tracks around the annotations, drawn under them; nil for none.
    public var tracks: TrackDrawing?
    /// The timeline's step, a month (1) or a year (12): `MonthTaken.step` of the page's photos.
    public var monthStep = 1
    /// The coast tiles drawn past the world outline's zooms; nil for none.
    public var coasts: CoastIndex?
    /// The map of everything's: where its tiles are asked for, and its photos by month; nil elsewhere.
    public var tiles: TileIndex?

    /// The map of everything's tiles (`/api/map/Z/X/Y.json`) and the timeline's counts.
    public struct TileIndex: Sendable, Encodable {
        /// The API's path, before `/Z/X/Y.json`.
        public var api: String
        /// Photos by month, `[month, count, …]` in month order (`MonthTaken.histogram`'s form).
        public var months: [Int]

        /// The index.
        public init(api: String, months: [Int]) {
            self.api = api
            self.months = months
        }

        /// The timeline's step over these months.
        var monthStep: Int {
            MonthTaken.step(stride(from: 0, to: months.count - 1, by: 2).map { Optional(months[$0]) })
        }
    }
    /// A trip's days, each with its own small map; nil on other pages.
    public var days: [DayMap]?

    /// Map data for a page.
    public init(features: [Feature], placeholder: String, span: Double = 0.05) {
        self.features = features
        self.placeholder = placeholder
        self.span = span
    }

    /// The page's form as a script element's JSON: the same bytes as `HTML.scriptJSON(self)`, written
    /// directly (`ScriptJSON`), keys in sorted order.
    func scriptJSON() throws -> String {
        var json = ScriptJSON(capacity: 2048 + features.count * 160)
        json.raw("{\"cluster\":")
        try json.encoded(cluster)
        json.raw(",")
        if let clusters {
            json.raw("\"clusters\":")
            try json.encoded(clusters)
            json.raw(",")
        }
        if let coasts {
            json.raw("\"coasts\":")
            coasts.write(to: &json)
            json.raw(",")
        }
        if let days {
            json.raw("\"days\":")
            try json.encoded(days)
            json.raw(",")
        }
        json.raw("\"entries\":")
        PageEntries(features).write(to: &json)
        if let focus {
            json.raw(",\"focus\":")
            json.array(focus) { $0.number($1) }
        }
        json.raw(",\"labels\":")
        json.array(labels) { $1.write(to: &$0) }
        json.raw(",\"listPage\":")
        json.number(PageRenderer.listPageSize)
        json.raw(",\"monthStep\":")
        json.number(monthStep)
        json.raw(",\"placeholder\":")
        json.string(placeholder)
        json.raw(",\"span\":")
        json.number(span)
        if let tiles {
            json.raw(",\"tiles\":")
            try json.encoded(tiles)
        }
        if let tracks {
            json.raw(",\"tracks\":")
            tracks.write(to: &json)
        }
        json.raw("}")
        return json.text
    }

    /// The page's form: `entries` (the features as columns), then what the script needs besides.
    public func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey {
            case entries, listPage, monthStep, cluster, clusters, coasts, placeholder, span, focus, labels, tiles
            case tracks, days
        }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(cluster, forKey: .cluster)
        try container.encode(PageEntries(features), forKey: .entries)
        try container.encode(PageRenderer.listPageSize, forKey: .listPage)
        try container.encode(monthStep, forKey: .monthStep)
        try container.encodeIfPresent(clusters, forKey: .clusters)
        try container.encodeIfPresent(coasts, forKey: .coasts)
        try container.encode(placeholder, forKey: .placeholder)
        try container.encode(span, forKey: .span)
        try container.encodeIfPresent(focus, forKey: .focus)
        try container.encode(labels, forKey: .labels)
        try container.encodeIfPresent(tiles, forKey: .tiles)
        try container.encodeIfPresent(tracks, forKey: .tracks)
        try container.encodeIfPresent(days, forKey: .days)
    }
}
