// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// `--format kml`: a KML 2.2 Document with one Placemark per record — its name, a one-line
/// snippet, an HTML description (the subtitle, the square, a link to the record's page), the date
/// taken, the fields as ExtendedData (attributes in QGIS), and a Point where it has a coordinate.
/// Elements follow the order of OGC's KML 2.2 schema.
struct KMLFormatter: RecordFormatter {
    /// The Document's name.
    let title: String

    func prologue() -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:atom="http://www.w3.org/2005/Atom">
        <Document>
        \(XMLText.element("name", title))

        """
    }

    func record(_ record: OutputRecord, index: Int) -> String? {
        let annotation = record.annotation
        let link = record.link.flatMap(HTML.webURL), square = annotation.thumbnailURL.flatMap(HTML.webURL)
        var lines = ["<Placemark>", XMLText.element("name", annotation.title)]
        if let link { lines.append("<atom:link href=\"\(XMLText.escape(link, attribute: true))\"/>") }
        lines.append("<Snippet maxLines=\"1\">\(XMLText.escape(annotation.subtitle))</Snippet>")
        // KML descriptions are HTML: the text is escaped for HTML first, then the whole for XML.
        lines.append(XMLText.element("description", descriptionHTML(annotation, square: square, link: link)))
        if let when = annotation.dateTaken.flatMap(DateTaken.dateTime) {
            lines.append("<TimeStamp><when>\(when)</when></TimeStamp>")
        }
        let data = record.fields.filter { !["title", "latitude", "longitude"].contains($0.name) && $0.value != .null }
        lines.append(
            "<ExtendedData>"
                + data.map { field in
                    "<Data name=\"\(XMLText.escape(field.name, attribute: true))\">"
                        + XMLText.element("value", field.value.plainText) + "</Data>"
                }.joined() + "</ExtendedData>")
        if let coordinate = annotation.coordinate {
            lines.append("<Point><coordinates>\(coordinate.longitude),\(coordinate.latitude)</coordinates></Point>")
        }
        lines.append("</Placemark>\n")
        return lines.joined(separator: "\n")
    }

    func epilogue(written: Int) -> String { "</Document>\n</kml>\n" }

    /// The callout Google Earth shows: subtitle, square, and a link to the record's page.
    private func descriptionHTML(_ annotation: Annotation, square: String?, link: String?) -> String {
        var html = annotation.subtitle.isEmpty ? "" : "<p>\(HTML.text(annotation.subtitle))</p>"
        if let square { html += "<p><img src=\"\(HTML.text(square))\" width=\"75\" height=\"75\" alt=\"\"></p>" }
        if let link {
            html +=
                "<p><a href=\"\(HTML.text(link))\">\(annotation.kind == .place ? "The place" : "The photo") on Flickr</a></p>"
        }
        return html
    }
}
