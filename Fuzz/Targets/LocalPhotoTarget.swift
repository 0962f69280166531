// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// A file `photomap import` reads (JPEG or HEIC, by its bytes): EXIF, one scaled decode (libjpeg-turbo)
/// or a whole one (libheif, libde265), the square and medium image made and encoded. Property: never a
/// crash; what is made is a 75×75 JPEG and a JPEG at most 500 px a side that decode again. Images are
/// limited to 4 megapixels here, so that libFuzzer's per-allocation limit holds for HEIF too, and a decode
/// to 24 MB (import's budget, scaled down: a 4 MP progressive 4:2:0 JPEG fits, a 4:4:4 one is refused).
enum LocalPhotoTarget {
    static let target = FuzzTarget(
        name: "local-photos",
        summary: "imported JPEG/HEIC files: EXIF, scaled decode, square and medium images that decode again",
        options: ["-max_len=262144", "-malloc_limit_mb=64", "-rss_limit_mb=1536"]
    ) { bytes in
        let data = Data(bytes)
        guard let kind = PhotoFileReader.kind(of: data),
            let read = try? PhotoFileReader.read(data, as: kind, maximumPixels: 4_000_000, maximumMemory: 24 << 20)
        else { return true }
        guard let square = try? JPEGCodec.decode(read.square), let medium = try? JPEGCodec.decode(read.medium) else {
            propertyFailed("an image made does not decode")
        }
        require(square.width == 75 && square.height == 75, "square \(square.width)×\(square.height)")
        require(
            max(medium.width, medium.height) <= 500 && (medium.width, medium.height) == read.mediumSize,
            "medium \(medium.width)×\(medium.height), said \(read.mediumSize)")
        return true
    }
}
