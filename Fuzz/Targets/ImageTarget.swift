// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapKit

/// PNG and JPEG: the whole-file check the cache runs before storing, and the full decode, at a
/// side limit of 1,024 pixels. Property: never a crash; check and decode agree (both accept with the
/// same size, or both refuse); an accepted image is within the limit. Memory: libFuzzer's
/// -malloc_limit_mb stops any single allocation over 32 MB, eight times what a 1,024² RGBA image needs.
enum ImageTarget {
    static let maximumSide = 1_024

    static let target = FuzzTarget(
        name: "images",
        summary:
            "PNG and JPEG check and decode (libpng, libjpeg-turbo): agree, stay within the size limit and its memory",
        options: ["-max_len=131072", "-malloc_limit_mb=32", "-rss_limit_mb=1024"]
    ) { bytes in
        let data = Data(bytes)
        let checked = try? ImageDecoder.check(data, maximumSide: maximumSide)
        let decoded = try? ImageDecoder.decode(data, maximumSide: maximumSide)
        switch (checked, decoded) {
        case let (checked?, (image, format)?):
            require(
                checked.width == image.width && checked.height == image.height && checked.format == format,
                "check says \(checked), decode \(image.width)×\(image.height) \(format)")
            require(
                image.width <= maximumSide && image.height <= maximumSide,
                "an image of \(image.width)×\(image.height) accepted")
        case (nil, nil):
            break
        case let (checked?, nil):
            propertyFailed("check accepts \(checked) but decode refuses")
        case let (nil, (image, format)?):
            propertyFailed("decode accepts \(image.width)×\(image.height) \(format) but check refuses")
        }
        if let trimmed = ImageDecoder.trimmedToEnd(data) {
            require(
                ImageDecoder.isWhole(head: trimmed.prefix(8), tail: trimmed.suffix(12)) || trimmed.count < 12,
                "trimmedToEnd gives bytes isWhole refuses")
        }
        return true
    }
}
