// SPDX-License-Identifier: Apache-2.0
/// `--format gpx`: GPX 1.1 waypoints — time (the date taken), name, description, links to the
/// record's page and its square, and the kind as the waypoint's type, in the schema's order.
/// A waypoint must have a latitude and longitude, so records without a coordinate are left out
/// (the writer counts them; the command says how many).
struct GPXFormatter: RecordFormatter {
    /// The metadata's name.
    let title: String

    func prologue() -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="photomap" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
        <metadata>\(XMLText.element("name", title))</metadata>

        """
    }

    func record(_ record: OutputRecord, index: Int) -> String? {
        let annotation = record.annotation
        guard let coordinate = annotation.coordinate else { return nil }
        var lines = ["<wpt lat=\"\(coordinate.latitude)\" lon=\"\(coordinate.longitude)\">"]
        if let time = annotation.dateTaken.flatMap(DateTaken.dateTime) { lines.append("<time>\(time)</time>") }
        lines.append(XMLText.element("name", annotation.title))
        if !annotation.subtitle.isEmpty { lines.append(XMLText.element("desc", annotation.subtitle)) }
        let links = [
            (record.link, annotation.kind == .place ? "The place on Flickr" : "The photo on Flickr"),
            (annotation.thumbnailURL, "Square thumbnail"),
        ]
        for (url, text) in links {
            guard let url = url.flatMap(HTML.webURL) else { continue }
            lines.append(
                "<link href=\"\(XMLText.escape(url, attribute: true))\">\(XMLText.element("text", text))</link>")
        }
        lines.append(XMLText.element("type", annotation.kind.rawValue))
        lines.append("</wpt>\n")
        return lines.joined(separator: "\n")
    }

    func epilogue(written: Int) -> String { "</gpx>\n" }
}
