// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// An EXIF block built byte by byte (TIFF header, IFD0, the EXIF and GPS IFDs), for JPEGs whose fields
/// the tests choose, well formed or not.
public struct ExifBlock: Sendable {
    /// One IFD entry: its tag, TIFF type, count and value bytes (in the block's byte order).
    public struct Entry: Sendable {
        public var tag: UInt16
        public var type: UInt16
        public var count: UInt32
        public var value: [UInt8]
        /// An offset written instead of the value's real one (pointing anywhere, even outside the block).
        public var offset: UInt32?

        public init(tag: UInt16, type: UInt16, count: UInt32, value: [UInt8], offset: UInt32? = nil) {
            self.tag = tag
            self.type = type
            self.count = count
            self.value = value
            self.offset = offset
        }
    }

    public var ifd0: [Entry] = []
    public var exif: [Entry] = []
    public var gps: [Entry] = []
    /// IFD1 (the thumbnail's).
    public var ifd1: [Entry] = []
    public var bigEndian = false

    public init(bigEndian: Bool = false) {
        self.bigEndian = bigEndian
    }

    // MARK: Entries

    public func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
    }

    public func short(_ tag: UInt16, _ value: UInt16) -> Entry {
        Entry(tag: tag, type: 3, count: 1, value: u16(value))
    }

    public func long(_ tag: UInt16, _ value: UInt32) -> Entry {
        Entry(tag: tag, type: 4, count: 1, value: u32(value))
    }

    public func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
        Entry(tag: tag, type: 5, count: UInt32(values.count), value: values.flatMap { u32($0.0) + u32($0.1) })
    }

    /// Signed rationals (SRATIONAL, type 10).
    public func srationals(_ tag: UInt16, _ values: [(Int32, Int32)]) -> Entry {
        Entry(
            tag: tag, type: 10, count: UInt32(values.count),
            value: values.flatMap { u32(UInt32(bitPattern: $0.0)) + u32(UInt32(bitPattern: $0.1)) })
    }

    /// Several SHORTs (type 3).
    public func shorts(_ tag: UInt16, _ values: [UInt16]) -> Entry {
        Entry(tag: tag, type: 3, count: UInt32(values.count), value: values.flatMap(u16))
    }

    /// Several LONGs (type 4).
    public func longs(_ tag: UInt16, _ values: [UInt32]) -> Entry {
        Entry(tag: tag, type: 4, count: UInt32(values.count), value: values.flatMap(u32))
    }

    /// Degrees, minutes and seconds (to 1/1000 s) of `value`, as GPSLatitude/GPSLongitude hold them.
    public func degrees(_ tag: UInt16, _ value: Double) -> Entry {
        let magnitude = abs(value)
        let degrees = magnitude.rounded(.down)
        let minutes = ((magnitude - degrees) * 60).rounded(.down)
        let seconds = ((magnitude - degrees) * 60 - minutes) * 60
        return rationals(tag, [(UInt32(degrees), 1), (UInt32(minutes), 1), (UInt32((seconds * 1000).rounded()), 1000)])
    }

    /// GPS entries for a position, with its references.
    public mutating func setPosition(latitude: Double, longitude: Double) {
        gps = [
            ascii(1, latitude < 0 ? "S" : "N"), degrees(2, latitude), ascii(3, longitude < 0 ? "W" : "E"),
            degrees(4, longitude),
        ]
    }

    // MARK: Bytes

    /// "Exif\0\0", then the TIFF structure.
    public var bytes: [UInt8] {
        let hasExif = !exif.isEmpty, hasGPS = !gps.isEmpty
        var first = ifd0
        // Pointers to the sub-IFDs, filled in once their offsets are known.
        if hasExif { first.append(long(0x8769, 0)) }
        if hasGPS { first.append(long(0x8825, 0)) }
        let ifds = [first, exif, gps, ifd1]
        // Each IFD: its entries, then the data of values over 4 bytes.
        func size(_ entries: [Entry]) -> Int {
            entries.isEmpty
                ? 0 : 2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.value.count > 4 ? $1.value.count : 0) }
        }
        var starts: [Int] = []
        var position = 8
        for ifd in ifds {
            starts.append(position)
            position += size(ifd)
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 42] : [0x49, 0x49, 42, 0]
        tiff += u32(8)
        for (index, var entries) in ifds.enumerated() where !entries.isEmpty {
            if index == 0 {
                for at in entries.indices where entries[at].tag == 0x8769 { entries[at].value = u32(UInt32(starts[1])) }
                for at in entries.indices where entries[at].tag == 0x8825 { entries[at].value = u32(UInt32(starts[2])) }
            }
            var data: [UInt8] = []
            let dataStart = starts[index] + 2 + 12 * entries.count + 4
            tiff += u16(UInt16(entries.count))
            for entry in entries {
                tiff += u16(entry.tag) + u16(entry.type) + u32(entry.count)
                if entry.value.count <= 4, entry.offset == nil {
                    tiff += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    tiff += u32(entry.offset ?? UInt32(dataStart + data.count))
                    if entry.value.count > 4 { data += entry.value }
                }
            }
            // The next IFD: IFD1 follows IFD0 when there is one.
            tiff += u32(index == 0 && !ifd1.isEmpty ? UInt32(starts[3]) : 0)
            tiff += data
        }
        return ExifReader.header + tiff
    }

    private func u16(_ value: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private func u32(_ value: UInt32) -> [UInt8] {
        let little = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
        return bigEndian ? little.reversed() : little
    }
}

/// JPEG files for the import tests: photomap's encoder, an APP1 EXIF segment spliced in after SOI.
public enum ExifJPEG {
    /// A JPEG of `image` carrying `exif`.
    public static func make(_ image: RGBAImage, exif: ExifBlock?, quality: Int = 90) throws -> Data {
        let plain = try JPEGCodec.encode(image, quality: quality)
        guard let exif else { return plain }
        let block = exif.bytes
        let length = block.count + 2
        return Data(plain.prefix(2)) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]) + Data(block)
            + plain.dropFirst(2)
    }

    /// Writes `NAME.jpg` into `folder` for each of `shots` (name, "HH:MM" taken on `day`, its own GPS or
    /// none): 32×32 quarters with DateTimeOriginal, OffsetTimeOriginal when `offset` is given, and the GPS.
    public static func writeShots(
        _ shots: [(name: String, time: String, own: (Double, Double)?)], day: String, offset: String? = nil,
        in folder: URL
    ) throws {
        try writeTaken(shots.map { ($0.name, "\(day) \($0.time):00", offset, $0.own) }, side: 32, in: folder)
    }

    /// Writes `NAME.jpg` into `folder` for each of `taken` (name, DateTimeOriginal "YYYY:MM:DD HH:MM:SS",
    /// OffsetTimeOriginal or none, its own GPS or none): `side`×`side` quarters.
    public static func writeTaken(
        _ taken: [(name: String, time: String, offset: String?, at: (Double, Double)?)], side: Int = 16,
        in folder: URL
    ) throws {
        let image = quarters(width: side, height: side)
        for (name, time, offset, at) in taken {
            var exif = ExifBlock()
            exif.exif = [exif.ascii(0x9003, time)] + (offset.map { [exif.ascii(0x9011, $0)] } ?? [])
            if let at { exif.setPosition(latitude: at.0, longitude: at.1) }
            try make(image, exif: exif).write(to: folder.appendingPathComponent("\(name).jpg"))
        }
    }

    /// Four solid quarters: red top left, green top right, blue bottom left, white bottom right — the
    /// corners tell how an image was turned.
    public static func quarters(width: Int, height: Int) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let colour: [UInt8] =
                    switch (x < width / 2, y < height / 2) {
                    case (true, true): [255, 0, 0]
                    case (false, true): [0, 255, 0]
                    case (true, false): [0, 0, 255]
                    case (false, false): [255, 255, 255]
                    }
                let offset = (y * width + x) * 4
                image.pixels[offset..<(offset + 3)] = colour[...]
            }
        }
        return image
    }

    /// A small, valid JPEG whose frame header claims `width`×`height`: what a decompression bomb is.
    public static func declaring(width: Int, height: Int) throws -> Data {
        var data = try JPEGCodec.encode(quarters(width: 16, height: 16))
        guard let sof = data.indices.first(where: { data[$0] == 0xFF && data[$0 + 1] == 0xC0 }) else { return data }
        // After the marker: length (2), precision (1), then height and width (2 each).
        data.replaceSubrange(
            (sof + 5)..<(sof + 9),
            with: [
                UInt8(height >> 8), UInt8(height & 0xFF),
                UInt8(width >> 8), UInt8(width & 0xFF),
            ])
        return data
    }
}
