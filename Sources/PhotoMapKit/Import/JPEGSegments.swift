// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The markers at the head of a JPEG file, walked up to the image data: where its EXIF block is.
enum JPEGSegments {
    /// The EXIF block of the first APP1 segment holding one ("Exif\0\0" and the TIFF structure), or nil.
    /// Lengths that run past the data end the walk: a truncated file has no EXIF rather than a bad one.
    static func exifBlock(in data: Data) -> Data? {
        data.withUnsafeBytes { bytes -> Data? in
            guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
            var offset = 2
            while offset + 4 <= bytes.count {
                guard bytes[offset] == 0xFF else { return nil }
                let marker = bytes[offset + 1]
                // Fill bytes before a marker.
                if marker == 0xFF {
                    offset += 1
                    continue
                }
                // Start of scan or end of image: no metadata past here. Markers without a length.
                if marker == 0xDA || marker == 0xD9 { return nil }
                if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                    offset += 2
                    continue
                }
                let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
                let body = offset + 4
                if marker == 0xE1, length - 2 > ExifReader.header.count,
                    ExifReader.header.indices.allSatisfy({ bytes[body + $0] == ExifReader.header[$0] })
                {
                    return Data(bytes[body..<(offset + 2 + length)])
                }
                offset += 2 + length
            }
            return nil
        }
    }
}
