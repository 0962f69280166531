// SPDX-License-Identifier: Apache-2.0
/// The open formats listings are written in besides the terminal's table.
public enum AnnotationFormat: String, CaseIterable, Sendable {
    /// photomap's own JSON: an array of annotation objects.
    case json
    /// An RFC 7946 FeatureCollection (geojson.io, QGIS, uMap).
    case geojson
    /// KML 2.2 Placemarks (Google Earth, QGIS).
    case kml
    /// GPX 1.1 waypoints (GPS units); records without a coordinate cannot be waypoints and are left out.
    case gpx
    /// RFC 4180 CSV with a header row (spreadsheets), formula-like cells neutralised.
    case csv

    /// One line on what it is and what reads it, for help, the man page and the README.
    public var summary: String {
        switch self {
        case .json:
            "photomap's JSON: an array of objects with kind, id, title, subtitle, latitude, longitude and the rest"
        case .geojson:
            "an RFC 7946 FeatureCollection (longitude first; no coordinate: \"geometry\": null), for QGIS, uMap, geojson.io"
        case .kml: "KML 2.2, a Placemark each with name, description, square, link and Point, for Google Earth and QGIS"
        case .gpx:
            "GPX 1.1 waypoints with name, description, time taken and links, for GPS units; records without a coordinate are left out"
        case .csv: "RFC 4180 CSV with a header row, UTF-8; cells that would run as spreadsheet formulas start with '"
        }
    }

    /// The format a file name's extension stands for ("places.kml" → .kml).
    public init?(fileName: String) {
        let dot = fileName.lastIndex(of: ".").map { fileName.index(after: $0) } ?? fileName.endIndex
        self.init(rawValue: fileName[dot...].lowercased())
    }

    /// The writer of one listing in this format: `title` names the collection (KML's Document, GPX's
    /// metadata); `extraFields` are the fields a command adds to each record, in order.
    func formatter(title: String, extraFields: [String]) -> any RecordFormatter {
        switch self {
        case .json: JSONFormatter()
        case .geojson: GeoJSONFormatter()
        case .kml: KMLFormatter(title: title)
        case .gpx: GPXFormatter(title: title)
        case .csv: CSVFormatter(columns: OutputRecord.standardFields + extraFields)
        }
    }
}

/// One format's text for a listing, a record at a time, so that any number of records streams.
protocol RecordFormatter {
    /// Text before the first record.
    func prologue() -> String
    /// One record's text (`index` counts the records written before it), or nil when the format
    /// cannot hold the record.
    func record(_ record: OutputRecord, index: Int) -> String?
    /// Text after the last record.
    func epilogue(written: Int) -> String
}
