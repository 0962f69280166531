// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// One photo record from a catalog made elsewhere (`import --records`): its id there, title, time taken,
/// location and image, checked field by field as it was read.
public struct PhotoRecord: Sendable, Equatable {
    /// Where a record's image is.
    public enum Image: Sendable, Equatable {
        /// An http or https URL, fetched when the square is first asked for.
        case url(String)
        /// The user's own file (absolute: a relative path is taken from the records file's folder),
        /// read as import reads photos when the square is first asked for.
        case file(String)
    }

    /// The record's id in the catalog it came from (kept, and shown on its photo page).
    public var sourceID: String
    public var title: String
    /// "YYYY-MM-DD HH:MM:SS", or nil.
    public var taken: String?
    public var coordinate: Coordinate?
    public var image: Image

    /// A record as read (the fields already checked).
    public init(sourceID: String, title: String, taken: String?, coordinate: Coordinate?, image: Image) {
        self.sourceID = sourceID
        self.title = title
        self.taken = taken
        self.coordinate = coordinate
        self.image = image
    }

    /// The columns of a records CSV file, in order (its header line).
    public static let columns = ["id", "title", "taken", "latitude", "longitude", "image"]
    /// Longest id, title and image kept: a record past them is skipped, not cut.
    static let maximumFieldBytes = 4096

    /// A record from its fields' text, or why it is skipped; a relative image path is taken from `folder`.
    static func make(
        id: String, title: String, taken: String, latitude: String, longitude: String, image: String,
        folder: String
    ) -> Result<PhotoRecord, RecordProblem> {
        for (name, value) in [("id", id), ("title", title), ("image", image)] {
            if value.utf8.count > maximumFieldBytes { return .failure(.init("\(name) is longer than 4,096 bytes")) }
            if value.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 && !(name == "title" && $0 == 0x0A) }) {
                return .failure(.init("\(name) holds a control character"))
            }
        }
        let sourceID = id.trimmingCharacters(in: .whitespaces)
        guard !sourceID.isEmpty else { return .failure(.init("the id is empty")) }
        let when = taken.trimmingCharacters(in: .whitespaces)
        guard when.isEmpty || RecordNumbers.isDateTime(when) else {
            return .failure(.init("taken \"\(when.prefix(40))\" is not YYYY-MM-DD HH:MM:SS"))
        }
        var coordinate: Coordinate?
        switch (latitude.trimmingCharacters(in: .whitespaces), longitude.trimmingCharacters(in: .whitespaces)) {
        case ("", ""): coordinate = nil
        case let (north, east):
            guard let lat = RecordNumbers.decimal(north), Coordinate.latitudes.contains(lat) else {
                return .failure(.init("latitude \"\(north.prefix(40))\" is not a number from -90 to 90"))
            }
            guard let lon = RecordNumbers.decimal(east), Coordinate.longitudes.contains(lon) else {
                return .failure(.init("longitude \"\(east.prefix(40))\" is not a number from -180 to 180"))
            }
            coordinate = Coordinate(latitude: lat, longitude: lon)
        }
        guard let image = Self.image(image.trimmingCharacters(in: .whitespaces), folder: folder) else {
            return .failure(.init("image is neither an http(s) URL nor a file path"))
        }
        return .success(
            PhotoRecord(
                sourceID: sourceID, title: title, taken: when.isEmpty ? nil : when, coordinate: coordinate,
                image: image))
    }

    /// An http(s) URL as given; any other text with a scheme is refused; a path is made absolute.
    private static func image(_ text: String, folder: String) -> Image? {
        guard !text.isEmpty else { return nil }
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let url = URL(string: text), url.host?.isEmpty == false else { return nil }
            return .url(text)
        }
        if lowered.hasPrefix("file://") {
            return URL(string: text).flatMap { $0.isFileURL ? .file($0.standardizedFileURL.path) : nil }
        }
        // "data:", "ftp:" and other schemes are no path; "C:" style names never reach here on Linux.
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/"),
            text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        {
            return nil
        }
        let absolute = text.hasPrefix("/") ? text : folder + "/" + text
        return .file(URL(fileURLWithPath: absolute).standardizedFileURL.path)
    }
}

/// Why a record was skipped (a line of `--report`).
public struct RecordProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The strict forms a records file's numbers and times must take.
enum RecordNumbers {
    /// A decimal number (`-12.5`, `3`, `1e-3`), finite; nil for `nan`, `inf`, hex (`0x1p3`), empty or
    /// anything else Double(_:) would take but a catalog's coordinate cannot mean.
    static func decimal(_ text: String) -> Double? {
        var bytes = Substring(text).utf8[...]
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        var digits = 0, dots = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if (0x30...0x39).contains(byte) {
                digits += 1
            } else if byte == UInt8(ascii: "."), dots == 0 {
                dots += 1
            } else {
                break
            }
            index = bytes.index(after: index)
        }
        guard digits > 0 else { return nil }
        if index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            var exponent = bytes[bytes.index(after: index)...]
            if let sign = exponent.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponent = exponent.dropFirst()
            }
            guard !exponent.isEmpty, exponent.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Whether `text` is `YYYY-MM-DD HH:MM:SS` naming a real day and time.
    static func isDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 19, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A,
            bytes[16] == 0x3A
        else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), hour < 24, minute < 60, second < 60, day >= 1
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }
}
