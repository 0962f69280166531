// SPDX-License-Identifier: Apache-2.0
import CExif
import Foundation
import PhotoMapModel

/// Reads the fields photomap uses from an EXIF block through libexif, checking each one's type, count
/// and values itself (libexif is asked not to fix anything up). The embedded thumbnail is never used:
/// libexif checks its declared offset and length against the block and drops one that runs past it.
public enum ExifReader {
    /// The longest text kept from a field; the rest is cut.
    static let maximumTextLength = 2_000

    /// The fields of an EXIF block in APP1 form: "Exif\0\0", then the TIFF header and IFDs.
    public static func read(_ block: Data) -> ExifFields {
        var fields = ExifFields()
        guard block.count > 14, block.starts(with: Self.header) else {
            fields.problems.append("EXIF block without its header")
            return fields
        }
        guard block.count <= Int(UInt32.max),
            let exif = block.withUnsafeBytes({ bytes in
                photomap_exif_load(bytes.bindMemory(to: UInt8.self).baseAddress, UInt32(bytes.count))
            })
        else {
            fields.problems.append("EXIF block could not be read")
            return fields
        }
        defer { exif_data_unref(exif) }
        let reader = Fields(exif: exif)
        fields.coordinate = reader.coordinate(problems: &fields.problems)
        let original: Bool
        (fields.dateTaken, fields.utcOffsetSeconds, original) = reader.dateTaken(problems: &fields.problems)
        if let taken = fields.dateTaken, original {
            fields.clock = PhotoClock(
                local: taken,
                subSecond: reader.ascii(
                    EXIF_IFD_EXIF, tag: 0x9291, name: "SubSecTimeOriginal", problems: &fields.problems),
                utcOffsetSeconds: fields.utcOffsetSeconds)
        }
        fields.make = reader.ascii(EXIF_IFD_0, tag: 0x010F, name: "Make", problems: &fields.problems)
        fields.model = reader.ascii(EXIF_IFD_0, tag: 0x0110, name: "Model", problems: &fields.problems)
        if let orientation = reader.numbers(
            EXIF_IFD_0, tag: 0x0112, name: "Orientation", count: 1, rationals: false, problems: &fields.problems
        )?.first {
            if (1...8).contains(orientation) {
                fields.orientation = Int(orientation)
            } else {
                fields.problems.append("Orientation \(Int(orientation)) is not 1–8: ignored")
            }
        }
        fields.title =
            reader.ascii(EXIF_IFD_0, tag: 0x010E, name: "ImageDescription", problems: &fields.problems)
            ?? reader.utf16(EXIF_IFD_0, tag: 0x9C9B, name: "XPTitle", problems: &fields.problems)
        fields.artist = reader.ascii(EXIF_IFD_0, tag: 0x013B, name: "Artist", problems: &fields.problems)
        fields.copyright = reader.ascii(EXIF_IFD_0, tag: 0x8298, name: "Copyright", problems: &fields.problems)
        return fields
    }

    /// The integer types, any of which holds a whole number as exiftool reads it.
    static let integerFormats = [
        EXIF_FORMAT_BYTE, EXIF_FORMAT_SBYTE, EXIF_FORMAT_SHORT, EXIF_FORMAT_SSHORT, EXIF_FORMAT_LONG, EXIF_FORMAT_SLONG,
    ]
    /// The types a rational field may come in: its own, the signed one, or a whole number.
    static let numberFormats = integerFormats + [EXIF_FORMAT_RATIONAL, EXIF_FORMAT_SRATIONAL]

    /// "Exif" and two zero bytes: how an APP1 segment's EXIF block starts.
    public static let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    /// The entries of one loaded block, each checked for its type and count before it is read.
    private struct Fields {
        let exif: UnsafeMutablePointer<ExifData>
        var order: ExifByteOrder { exif_data_get_byte_order(exif) }

        /// The entry's bytes and format when it has one of `formats` and at least `count` components, else nil
        /// with a problem.
        func entry(
            _ ifd: ExifIfd, tag: UInt32, name: String, formats: [ExifFormat], count: Int,
            problems: inout [String]
        ) -> (data: UnsafeMutablePointer<UInt8>, components: Int, format: ExifFormat)? {
            guard let entry = photomap_exif_entry(exif, ifd, tag) else { return nil }
            let format = entry.pointee.format
            guard formats.contains(format) else {
                problems.append("\(name) has the wrong type: ignored")
                return nil
            }
            let size = Int(exif_format_get_size(format))
            let components = Int(entry.pointee.components)
            guard components >= count, let data = entry.pointee.data,
                Int(entry.pointee.size) >= components * size
            else {
                problems.append("\(name) has \(components) values where \(count) were expected: ignored")
                return nil
            }
            return (data, components, format)
        }

        /// The first `count` values of a number field, as exiftool reads them whatever integer or rational
        /// type the camera chose (the Nokia 8.3 writes GPS degrees as SRATIONAL); values past `count` are
        /// ignored. Nil with a problem for a zero denominator.
        func numbers(
            _ ifd: ExifIfd, tag: UInt32, name: String, count: Int, rationals: Bool = true, problems: inout [String]
        ) -> [Double]? {
            let formats = rationals ? ExifReader.numberFormats : ExifReader.integerFormats
            guard
                let (data, _, format) = entry(
                    ifd, tag: tag, name: name, formats: formats, count: count, problems: &problems)
            else { return nil }
            let size = Int(exif_format_get_size(format))
            var values: [Double] = []
            for index in 0..<count {
                let at = data + index * size
                switch format {
                case EXIF_FORMAT_BYTE: values.append(Double(at.pointee))
                case EXIF_FORMAT_SBYTE: values.append(Double(Int8(bitPattern: at.pointee)))
                case EXIF_FORMAT_SHORT: values.append(Double(exif_get_short(at, order)))
                case EXIF_FORMAT_SSHORT: values.append(Double(exif_get_sshort(at, order)))
                case EXIF_FORMAT_LONG: values.append(Double(exif_get_long(at, order)))
                case EXIF_FORMAT_SLONG: values.append(Double(exif_get_slong(at, order)))
                case EXIF_FORMAT_RATIONAL:
                    let rational = exif_get_rational(at, order)
                    guard rational.denominator != 0 else { return zeroDenominator(name, &problems) }
                    values.append(Double(rational.numerator) / Double(rational.denominator))
                default:
                    let rational = exif_get_srational(at, order)
                    guard rational.denominator != 0 else { return zeroDenominator(name, &problems) }
                    values.append(Double(rational.numerator) / Double(rational.denominator))
                }
            }
            return values
        }

        private func zeroDenominator(_ name: String, _ problems: inout [String]) -> [Double]? {
            problems.append("\(name) has a zero denominator: ignored")
            return nil
        }

        /// An ASCII field's text (UTF-8 accepted, as cameras and tools write it), trimmed, control
        /// characters dropped; nil when empty.
        func ascii(_ ifd: ExifIfd, tag: UInt32, name: String, problems: inout [String]) -> String? {
            guard
                let (data, count, _) = entry(
                    ifd, tag: tag, name: name, formats: [EXIF_FORMAT_ASCII], count: 1,
                    problems: &problems)
            else { return nil }
            let bytes = UnsafeBufferPointer(start: data, count: count).prefix { $0 != 0 }
            return ExifReader.cleaned(String(decoding: bytes, as: UTF8.self))
        }

        /// A Windows XP field: UTF-16LE in BYTE values, ending with a zero character.
        func utf16(_ ifd: ExifIfd, tag: UInt32, name: String, problems: inout [String]) -> String? {
            guard
                let (data, count, _) = entry(
                    ifd, tag: tag, name: name, formats: [EXIF_FORMAT_BYTE], count: 2,
                    problems: &problems)
            else { return nil }
            var units: [UInt16] = []
            for index in stride(from: 0, to: count - 1, by: 2) {
                let unit = UInt16(data[index]) | UInt16(data[index + 1]) << 8
                if unit == 0 { break }
                units.append(unit)
            }
            return ExifReader.cleaned(String(decoding: units, as: UTF16.self))
        }

        /// Degrees, minutes and seconds as three numbers (rationals, signed or not, or whole numbers), or as
        /// text (`ExifReader.degreeParts(text:)`); nil (with a problem) for a zero denominator, text that
        /// does not surely say them, or a negative part, whose meaning beside N/S is unclear.
        func degrees(_ tag: UInt32, name: String, problems: inout [String]) -> Double? {
            let parts: [Double]
            if photomap_exif_entry(exif, EXIF_IFD_GPS, tag)?.pointee.format == EXIF_FORMAT_ASCII {
                guard let text = ascii(EXIF_IFD_GPS, tag: tag, name: name, problems: &problems) else { return nil }
                guard let read = ExifReader.degreeParts(text: text) else {
                    problems.append(
                        "\(name) is text (\"\(text.prefix(40))\") that does not surely give degrees: no location")
                    return nil
                }
                parts = read
            } else {
                guard let read = numbers(EXIF_IFD_GPS, tag: tag, name: name, count: 3, problems: &problems) else {
                    return nil
                }
                parts = read
            }
            guard parts.allSatisfy({ $0 >= 0 }) else {
                problems.append("\(name) has a negative value: no location")
                return nil
            }
            return parts[0] + parts[1] / 60 + parts[2] / 3600
        }

        /// "N"/"S" or "E"/"W": +1 or -1; nil when missing or something else.
        func sign(_ tag: UInt32, name: String, positive: UInt8, negative: UInt8, problems: inout [String]) -> Double? {
            guard
                let (data, _, _) = entry(
                    EXIF_IFD_GPS, tag: tag, name: name, formats: [EXIF_FORMAT_ASCII], count: 1,
                    problems: &problems)
            else { return nil }
            switch data[0] {
            case positive: return 1
            case negative: return -1
            default:
                problems.append(
                    "\(name) is neither \(Character(UnicodeScalar(positive))) nor "
                        + "\(Character(UnicodeScalar(negative))): no location")
                return nil
            }
        }

        func coordinate(problems: inout [String]) -> Coordinate? {
            let hasLatitudeRef = photomap_exif_entry(exif, EXIF_IFD_GPS, 0x0001) != nil
            let hasLongitudeRef = photomap_exif_entry(exif, EXIF_IFD_GPS, 0x0003) != nil
            guard let latitude = degrees(0x0002, name: "GPSLatitude", problems: &problems),
                let longitude = degrees(0x0004, name: "GPSLongitude", problems: &problems)
            else { return nil }
            // (0, 0) without references is what devices write when they had no fix.
            if latitude == 0 && longitude == 0 && !(hasLatitudeRef && hasLongitudeRef) { return nil }
            var signs = (1.0, 1.0)
            if hasLatitudeRef || hasLongitudeRef {
                guard
                    let north = sign(
                        0x0001, name: "GPSLatitudeRef", positive: 0x4E, negative: 0x53,
                        problems: &problems),
                    let east = sign(
                        0x0003, name: "GPSLongitudeRef", positive: 0x45, negative: 0x57,
                        problems: &problems)
                else { return nil }
                signs = (north, east)
            } else {
                problems.append("GPS position without N/S and E/W references: taken as north and east")
            }
            // Seven decimals (about a centimetre): the sum of degrees, minutes and seconds ends in float noise.
            func rounded(_ value: Double) -> Double { (value * 1e7).rounded() / 1e7 }
            guard
                let coordinate = Coordinate(
                    latitude: rounded(latitude * signs.0),
                    longitude: rounded(longitude * signs.1))
            else {
                problems.append("GPS position \(latitude), \(longitude) is out of range: no location")
                return nil
            }
            return coordinate
        }

        /// DateTimeOriginal (else DateTime) as "YYYY-MM-DD HH:MM:SS", OffsetTimeOriginal in seconds, and whether
        /// the date is DateTimeOriginal.
        func dateTaken(problems: inout [String]) -> (String?, Int?, Bool) {
            let original = ascii(EXIF_IFD_EXIF, tag: 0x9003, name: "DateTimeOriginal", problems: &problems)
            guard let text = original ?? ascii(EXIF_IFD_0, tag: 0x0132, name: "DateTime", problems: &problems)
            else { return (nil, nil, false) }
            guard let date = ExifReader.flickrDate(text) else {
                problems.append("date \"\(text.prefix(40))\" is not YYYY:MM:DD HH:MM:SS: no date")
                return (nil, nil, false)
            }
            let offsetText =
                original == nil
                ? nil
                : ascii(EXIF_IFD_EXIF, tag: 0x9011, name: "OffsetTimeOriginal", problems: &problems)
            let offset = offsetText.flatMap(ExifReader.offsetSeconds)
            if let offsetText, offset == nil {
                problems.append("OffsetTimeOriginal \"\(offsetText.prefix(20))\" is not ±HH:MM: ignored")
            }
            return (date, offset, original != nil)
        }
    }

    /// Degrees, minutes and seconds from GPS degrees written as text, as some phones do; nil unless they
    /// are sure. The HTC One M8 prints each of the three with a decimal comma and five decimals,
    /// "52,00000,50,00000,34,01180" (52° 50′ 34.0118″): its GPSTimeStamp beside it, "17,00000,8,00000,29,00000"
    /// read the same way, is 17:08:29 UTC, within a minute of the photo's 19:09:19 in German summer time.
    /// exiftool takes such text's first three numbers (52° 0′ 50″, 93 km away). Other text is read as
    /// exiftool reads it, its numbers in order, when it is nothing but one to three numbers (digits, a
    /// decimal point) between spaces, or three between commas: "43,5" could be 43° 5′, or 43.5° with a
    /// decimal comma.
    static func degreeParts(text: String) -> [Double]? {
        func isNumber(_ part: Substring) -> Bool {
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
        }
        let commaParts = text.split(separator: ",", omittingEmptySubsequences: false)
        if commaParts.count == 6, commaParts.allSatisfy({ isNumber($0) && !$0.contains(".") }),
            [1, 3, 5].allSatisfy({ commaParts[$0].count == 5 })
        {
            return [0, 2, 4].compactMap { Double("\(commaParts[$0]).\(commaParts[$0 + 1])") }
        }
        let numbers = commaParts.count == 3 ? commaParts : text.split(separator: " ")
        guard (1...3).contains(numbers.count), numbers.allSatisfy(isNumber) else { return nil }
        let parts = numbers.compactMap { Double($0) }
        guard parts.count == numbers.count else { return nil }
        return parts + Array(repeating: 0, count: 3 - parts.count)
    }

    /// "2024:05:01 17:48:17" → "2024-05-01 17:48:17"; nil unless every part is a number in range.
    static func flickrDate(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            let part = bytes[range]
            guard part.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(String(decoding: part, as: UTF8.self))
        }
        guard bytes[4] == 0x3A, bytes[7] == 0x3A, bytes[10] == 0x20, bytes[13] == 0x3A, bytes[16] == 0x3A,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1800...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", year, month, day, hour, minute, second)
    }

    /// "+02:00" → 7200; nil unless ±HH:MM within a day.
    static func offsetSeconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == 0x2B || bytes[0] == 0x2D, bytes[3] == 0x3A,
            let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)),
            let minutes = Int(String(decoding: bytes[4..<6], as: UTF8.self)),
            (0...14).contains(hours), (0...59).contains(minutes)
        else { return nil }
        return (bytes[0] == 0x2D ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// Text as a title or name: control characters (newlines included) become spaces, runs of spaces
    /// one, the ends trimmed, at most `maximumTextLength` characters; nil when nothing is left.
    static func cleaned(_ text: String) -> String? {
        var result = ""
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            let isSpace = scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
            if isSpace {
                if !lastWasSpace { result.unicodeScalars.append(" ") }
            } else {
                result.unicodeScalars.append(scalar)
            }
            lastWasSpace = isSpace
            if result.count >= maximumTextLength { break }
        }
        let trimmed = result.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }
}
