// SPDX-License-Identifier: Apache-2.0
/// `--format geojson`: an RFC 7946 FeatureCollection, one Feature per line. A Point's coordinates
/// are longitude then latitude (§3.1.1); a record without a coordinate has `"geometry": null`
/// (§3.2); every other field is a property.
struct GeoJSONFormatter: RecordFormatter {
    func prologue() -> String { "{\"type\":\"FeatureCollection\",\"features\":[" }

    func record(_ record: OutputRecord, index: Int) -> String? {
        let geometry =
            record.annotation.coordinate.map { coordinate in
                "{\"type\":\"Point\",\"coordinates\":[\(JSONText.value(.number(coordinate.longitude))),"
                    + "\(JSONText.value(.number(coordinate.latitude)))]}"
            } ?? "null"
        let properties = record.fields.filter { $0.name != "latitude" && $0.name != "longitude" }
        return (index == 0 ? "\n" : ",\n")
            + "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":\(JSONText.object(properties))}"
    }

    func epilogue(written: Int) -> String { "\n]}\n" }
}
