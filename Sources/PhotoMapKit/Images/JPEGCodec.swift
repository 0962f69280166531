// SPDX-License-Identifier: Apache-2.0
import CJPEG
import Foundation

/// JPEG through libjpeg-turbo, whose longjmp error handling stays inside the C shim.
public enum JPEGCodec {
    /// JPEG files start with the SOI marker followed by another marker.
    public static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// The image in a JPEG file's bytes; throws for anything truncated or corrupt.
    public static func decode(_ data: Data, maximumSide: Int = ImageDecoder.maximumSide) throws -> RGBAImage {
        let read = try self.read(data, maximumSide: maximumSide, channels: 4)
        guard let pixels = read.pixels else { throw ImageError.undecodable("out of memory") }
        return RGBAImage(takingMallocedPixels: pixels, width: read.width, height: read.height)
    }

    /// The size of the image in a JPEG file's bytes, after decoding every scanline (into one scratch
    /// row: the full check, without the image's memory).
    public static func check(
        _ data: Data,
        maximumSide: Int = ImageDecoder.maximumSide
    ) throws -> (width: Int, height: Int) {
        let read = try self.read(data, maximumSide: maximumSide, channels: 0)
        return (read.width, read.height)
    }

    /// A JPEG's image decoded at the smallest of libjpeg's scales (1/8 to 1) whose sides stay at least
    /// `minimumLongSide` and `minimumShortSide` (or the image's own, when smaller), as RGB rows: what the
    /// squares and medium images of an imported photo are made from. A header declaring more than
    /// `maximumPixels`, or a decode that would hold more than `maximumMemory` bytes, is refused before
    /// anything is allocated (`ImageError.tooCostly` for the memory).
    public static func decodeScaled(
        _ data: Data, minimumLongSide: Int, minimumShortSide: Int,
        maximumPixels: Int, maximumMemory: Int = .max
    ) throws -> ScaledImage {
        let read = try self.read(
            data, maximumSide: Int(UInt32.max), maximumPixels: maximumPixels, maximumMemory: maximumMemory,
            minimumSides: (minimumLongSide, minimumShortSide), channels: 3)
        guard let pixels = read.pixels else { throw ImageError.undecodable("out of memory") }
        return ScaledImage(
            fullWidth: read.width, fullHeight: read.height,
            plane: PixelPlane(
                owning: pixels, width: read.decodedWidth, height: read.decodedHeight,
                channels: 3))
    }

    /// The bytes `decodeScaled` with these arguments would hold, known from the header alone (the
    /// whole image's coefficients for a progressive file, the decoded rows, libjpeg's buffers); throws
    /// for a header it refuses.
    public static func scaledDecodeMemory(
        _ data: Data, minimumLongSide: Int, minimumShortSide: Int, maximumPixels: Int
    ) throws -> Int {
        guard data.starts(with: signature) else { throw ImageError.undecodable("no JPEG signature") }
        var message = [CChar](repeating: 0, count: 256)
        let bytes = data.withUnsafeBytes { bytes in
            photomap_jpeg_plan(
                bytes.bindMemory(to: UInt8.self).baseAddress, UInt(bytes.count), UInt32.max,
                UInt64(clamping: maximumPixels), UInt32(clamping: minimumLongSide),
                UInt32(clamping: minimumShortSide), 3, &message, message.count)
        }
        guard bytes > 0 else { throw ImageError.undecodable(Self.text(message)) }
        return Int(clamping: bytes)
    }

    /// `photomap_jpeg_read`: the full size, the decoded size and the pixels (nil for the check; free them).
    private static func read(
        _ data: Data, maximumSide: Int, maximumPixels: Int = .max, maximumMemory: Int = .max,
        minimumSides: (long: Int, short: Int) = (Int(UInt32.max), Int(UInt32.max)),
        channels: Int32
    ) throws
        -> (width: Int, height: Int, decodedWidth: Int, decodedHeight: Int, pixels: UnsafeMutablePointer<UInt8>?)
    {
        guard data.starts(with: signature) else { throw ImageError.undecodable("no JPEG signature") }
        var width: Int32 = 0, height: Int32 = 0, decodedWidth: Int32 = 0, decodedHeight: Int32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let decoded = data.withUnsafeBytes { bytes in
            photomap_jpeg_read(
                bytes.bindMemory(to: UInt8.self).baseAddress, UInt(bytes.count),
                UInt32(clamping: maximumSide), UInt64(clamping: maximumPixels), UInt64(clamping: maximumMemory),
                UInt32(clamping: minimumSides.long), UInt32(clamping: minimumSides.short), channels,
                &width, &height, &decodedWidth, &decodedHeight, &pixels, &message, message.count)
        }
        switch decoded {
        case 1: return (Int(width), Int(height), Int(decodedWidth), Int(decodedHeight), pixels)
        case 2: throw ImageError.tooCostly(Self.text(message))
        default: throw ImageError.undecodable(Self.text(message))
        }
    }

    /// A JPEG of `image` at `quality` (1–100), alpha dropped: baseline, or progressive (libjpeg's
    /// progression of scans).
    public static func encode(_ image: RGBAImage, quality: Int = 85, progressive: Bool = false) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let encoded = photomap_jpeg_encode(
            image.pixels, Int32(image.width), Int32(image.height), Int32(quality), progressive ? 1 : 0,
            &output, &size, &message, message.count)
        guard encoded == 1, let output else { throw ImageError.unencodable(Self.text(message)) }
        defer { free(output) }
        return Data(bytes: output, count: Int(size))
    }

    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
