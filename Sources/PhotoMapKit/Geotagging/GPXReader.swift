import CXML2
import Foundation

/// Reads the track points of a GPX 1.0 or 1.1 file with libxml2's streaming reader (one node at a time,
/// so a file of any size is read in little memory): `gpx/trk/trkseg/trkpt` with its `lat`, `lon` and
/// `time`. Waypoints and routes are not a track, and extensions are passed over.
public enum GPXReader {
    /// The file's fixes and skipped points; throws `GeotagError` for a file that cannot be read, is not
    /// well-formed XML (an empty one included), or is not GPX.
    public static func read(path: String) throws -> GPXTrackFile {
        // Opened first by photomap, for the system's reason when it cannot be read (libxml2 would only
        // say it failed to load an external entity).
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw GeotagError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw GeotagError.unreadable(path: path, reason: "not a file") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw GeotagError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
        let error = UnsafeMutablePointer<photomap_xml_error>.allocate(capacity: 1)
        error.initialize(to: photomap_xml_error())
        defer { error.deallocate() }
        guard let reader = photomap_xml_open(path, error) else {
            throw GeotagError.unreadable(path: path, reason: "libxml2 cannot open it")
        }
        defer { xmlFreeTextReader(reader) }
        var walk = Walk(file: GPXTrackFile(path: path))
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { break }
            guard status == 1, error.pointee.failed == 0 else {
                throw malformed(path, error.pointee, reader: reader)
            }
            try walk.visit(reader)
        }
        if error.pointee.failed != 0 { throw malformed(path, error.pointee, reader: reader) }
        guard walk.sawRoot else { throw GeotagError.malformed(path: path, line: 1, message: "no element") }
        return walk.file
    }

    private static func malformed(_ path: String, _ error: photomap_xml_error, reader: xmlTextReaderPtr)
        -> GeotagError
    {
        var recorded = error
        let message = withUnsafeBytes(of: &recorded.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let line = error.failed != 0 ? Int(error.line) : Int(xmlTextReaderGetParserLineNumber(reader))
        return .malformed(
            path: path, line: max(line, 1),
            message: message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                ? "cannot be parsed" : message.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Where the reader is: the open elements, and the track point being read.
    private struct Walk {
        var file: GPXTrackFile
        var sawRoot = false
        /// The local names of the elements open around the current node.
        var open: [String] = []
        /// The GPX namespace of the root (1.0's or 1.1's, or none).
        var namespace: String?
        /// The open `trkpt`: its attributes' values, its line, and its `time` text once read.
        var point: (latitude: String?, longitude: String?, line: Int, time: String?)?
        /// Whether text nodes now belong to the open point's `time`.
        var inTime = false

        mutating func visit(_ reader: xmlTextReaderPtr) throws {
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                let name = text(xmlTextReaderConstLocalName(reader)) ?? ""
                let namespace = text(xmlTextReaderConstNamespaceUri(reader))
                let line = Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader)))
                if !sawRoot {
                    sawRoot = true
                    guard name == "gpx" else {
                        throw GeotagError.notGPX(path: file.path, line: max(line, 1), root: name)
                    }
                    self.namespace = namespace
                }
                let inGPX = namespace == self.namespace
                if inGPX && name == "trk" && open == ["gpx"] { file.trackCount += 1 }
                if inGPX && name == "trkpt" && open == ["gpx", "trk", "trkseg"] {
                    point = (
                        attribute(reader, "lat"), attribute(reader, "lon"), max(line, 1), nil
                    )
                }
                // The point's own first `time`, not one inside its extensions.
                if inGPX && name == "time" && open.count == 4 && point != nil && point?.time == nil {
                    point?.time = ""
                    inTime = true
                }
                if xmlTextReaderIsEmptyElement(reader) == 1 {
                    close(name)
                } else {
                    open.append(name)
                }
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
                if inTime, let value = text(xmlTextReaderConstValue(reader)) { point?.time? += value }
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                close(open.popLast() ?? "")
            default:
                break
            }
        }

        /// Ends the element `name`: a `time` stops taking text, a track point is kept or skipped.
        mutating func close(_ name: String) {
            if name == "time" { inTime = false }
            guard name == "trkpt", open.count == 3, let point else { return }
            self.point = nil
            guard let latitude = point.latitude.flatMap(Double.init), (-90...90).contains(latitude) else {
                return skip(point.line, "latitude \(point.latitude.map { "\"\($0.prefix(30))\"" } ?? "missing")")
            }
            guard let longitude = point.longitude.flatMap(Double.init), (-180...180).contains(longitude) else {
                return skip(point.line, "longitude \(point.longitude.map { "\"\($0.prefix(30))\"" } ?? "missing")")
            }
            guard let timeText = point.time else { return skip(point.line, "no time") }
            let trimmed = timeText.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let time = GPXTime.seconds(trimmed) else {
                return skip(point.line, "time \"\(trimmed.prefix(40))\" is not a date and time")
            }
            file.fixes.append(TrackFix(time: time, latitude: latitude, longitude: longitude))
        }

        mutating func skip(_ line: Int, _ reason: String) {
            file.skipped.append((line, "track point skipped: \(reason)"))
        }

        func text(_ pointer: UnsafePointer<xmlChar>?) -> String? {
            pointer.map { String(cString: $0) }
        }

        func attribute(_ reader: xmlTextReaderPtr, _ name: String) -> String? {
            guard let value = photomap_xml_attribute(reader, name) else { return nil }
            defer { photomap_xml_free(value) }
            return String(cString: value).trimmingCharacters(in: .whitespaces)
        }
    }
}
