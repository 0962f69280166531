// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// EXIF blocks (libexif) as `photomap import` reads them: the input is the TIFF structure after
/// "Exif\0\0", and also a JPEG whose APP1 segments are walked for one. Property: never a crash; a
/// coordinate is in range, the orientation 1–8, every text short, one line and not empty.
enum ExifTarget {
    static let target = FuzzTarget(
        name: "exif",
        summary: "EXIF blocks through libexif and the JPEG segment walk: in-range fields, clean bounded texts",
        options: ["-max_len=65536", "-malloc_limit_mb=64", "-rss_limit_mb=1024"]
    ) { bytes in
        let fields = ExifReader.read(Data(ExifReader.header + bytes))
        if let coordinate = fields.coordinate {
            require(
                (-90...90).contains(coordinate.latitude) && (-180...180).contains(coordinate.longitude),
                "coordinate \(coordinate) out of range")
        }
        require((1...8).contains(fields.orientation), "orientation \(fields.orientation)")
        for text in [fields.title, fields.artist, fields.copyright, fields.dateTaken].compactMap({ $0 }) {
            require(!text.isEmpty && text.count <= 2_000 && !text.contains("\n"), "text \(text.debugDescription)")
        }
        if let offset = fields.utcOffsetSeconds { require(abs(offset) <= 14 * 3600 + 59 * 60, "offset \(offset)") }
        _ = ExifReader.read(Data([0xFF, 0xD8] + bytes))
        return true
    }
}
