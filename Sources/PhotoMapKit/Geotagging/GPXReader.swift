// SPDX-License-Identifier: Apache-2.0
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

    /// The elements whose place the walk follows; every other one is `other`.
    private enum Element: Equatable {
        case gpx, trk, trkseg, trkpt, time, other
    }

    /// Where the reader is: the open elements, and the track point being read. Names are compared as the
    /// C strings libxml2 hands out: no String is made for a node that is not needed.
    private struct Walk {
        var file: GPXTrackFile
        var sawRoot = false
        /// The elements open around the current node.
        var open: [Element] = []
        /// The GPX namespace of the root (1.0's or 1.1's), or nil for none.
        var namespace: [CChar]?
        /// The open `trkpt`: its attributes' values, its line, and its `time` text once read.
        var point: (latitude: String?, longitude: String?, line: Int, time: String?)?
        /// Whether text nodes now belong to the open point's `time`.
        var inTime = false

        static let names: [(String, Element)] = [
            ("gpx", .gpx), ("trk", .trk), ("trkseg", .trkseg), ("trkpt", .trkpt), ("time", .time),
        ]

        mutating func visit(_ reader: xmlTextReaderPtr) throws {
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                let namespaceURI = xmlTextReaderConstNamespaceUri(reader)
                if !sawRoot {
                    sawRoot = true
                    let name = xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
                    guard name == "gpx" else {
                        let line = Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader)))
                        throw GeotagError.notGPX(path: file.path, line: max(line, 1), root: name)
                    }
                    namespace = namespaceURI.map(cString)
                }
                let element = inNamespace(namespaceURI) ? classify(xmlTextReaderConstLocalName(reader)) : .other
                if element == .trk && open.count == 1 { file.trackCount += 1 }
                if element == .trkseg && open.count == 2 && open[1] == .trk {
                    file.segmentStarts.append(file.fixes.count)
                }
                // (The root is always `gpx`: the first element is checked.)
                if element == .trkpt && open.count == 3 && open[1] == .trk && open[2] == .trkseg {
                    let line = Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader)))
                    point = (attribute(reader, "lat"), attribute(reader, "lon"), max(line, 1), nil)
                }
                // The point's own first `time`, not one inside its extensions.
                if element == .time && open.count == 4 && point != nil && point?.time == nil {
                    point?.time = ""
                    inTime = true
                }
                if xmlTextReaderIsEmptyElement(reader) == 1 {
                    close(element)
                } else {
                    open.append(element)
                }
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
                if inTime, let value = xmlTextReaderConstValue(reader) { point?.time? += String(cString: value) }
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                close(open.popLast() ?? .other)
            default:
                break
            }
        }

        func classify(_ name: UnsafePointer<xmlChar>?) -> Element {
            guard let name else { return .other }
            return name.withMemoryRebound(to: CChar.self, capacity: 1) { text in
                Self.names.first { strcmp(text, $0.0) == 0 }?.1 ?? .other
            }
        }

        /// Whether an element's namespace is the root's (both none, or the same URI).
        func inNamespace(_ uri: UnsafePointer<xmlChar>?) -> Bool {
            switch (uri, namespace) {
            case (nil, nil): return true
            case let (uri?, namespace?):
                return uri.withMemoryRebound(to: CChar.self, capacity: 1) { strcmp($0, namespace) == 0 }
            default: return false
            }
        }

        func cString(_ pointer: UnsafePointer<xmlChar>) -> [CChar] {
            pointer.withMemoryRebound(to: CChar.self, capacity: 1) {
                Array(UnsafeBufferPointer(start: $0, count: strlen($0) + 1))
            }
        }

        /// Ends an element: a `time` stops taking text, a track point is kept or skipped.
        mutating func close(_ element: Element) {
            if element == .time { inTime = false }
            guard element == .trkpt, open.count == 3, let point else { return }
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

        func attribute(_ reader: xmlTextReaderPtr, _ name: String) -> String? {
            guard let value = photomap_xml_attribute(reader, name) else { return nil }
            defer { photomap_xml_free(value) }
            return String(cString: value).trimmingCharacters(in: .whitespaces)
        }
    }
}
