import CJPEG
import Foundation

/// JPEG through libjpeg-turbo, whose longjmp error handling stays inside the C shim.
public enum JPEGCodec {
    /// JPEG files start with the SOI marker followed by another marker.
    public static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// The image in a JPEG file's bytes; throws for anything truncated or corrupt.
    public static func decode(_ data: Data, maximumSide: Int = ImageDecoder.maximumSide) throws -> RGBAImage {
        guard data.starts(with: signature) else { throw ImageError.undecodable("no JPEG signature") }
        var width: Int32 = 0, height: Int32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let decoded = data.withUnsafeBytes { bytes in
            photomap_jpeg_decode(bytes.bindMemory(to: UInt8.self).baseAddress, UInt(bytes.count), UInt32(maximumSide),
                                 &width, &height,
                                 &pixels, &message, message.count)
        }
        guard decoded == 1, let pixels else { throw ImageError.undecodable(Self.text(message)) }
        defer { free(pixels) }
        let count = Int(width) * Int(height) * 4
        return RGBAImage(width: Int(width), height: Int(height),
                         pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
    }

    /// The size of the image in a JPEG file's bytes, after decoding every scanline (into one scratch
    /// row: the full check, without the image's memory).
    public static func check(_ data: Data,
                             maximumSide: Int = ImageDecoder.maximumSide) throws -> (width: Int, height: Int) {
        guard data.starts(with: signature) else { throw ImageError.undecodable("no JPEG signature") }
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let checked = data.withUnsafeBytes { bytes in
            photomap_jpeg_decode(bytes.bindMemory(to: UInt8.self).baseAddress, UInt(bytes.count), UInt32(maximumSide),
                                 &width, &height,
                                 nil, &message, message.count)
        }
        guard checked == 1 else { throw ImageError.undecodable(Self.text(message)) }
        return (Int(width), Int(height))
    }

    /// A JPEG's image decoded at the smallest of libjpeg's scales (1/8 to 1) whose sides stay at least
    /// `minimumLongSide` and `minimumShortSide` (or the image's own, when smaller), as RGB rows: what the
    /// squares and medium images of an imported photo are made from. A header declaring more than
    /// `maximumPixels` is refused before anything is allocated.
    public static func decodeScaled(_ data: Data, minimumLongSide: Int, minimumShortSide: Int,
                                    maximumPixels: Int) throws -> ScaledImage {
        guard data.starts(with: signature) else { throw ImageError.undecodable("no JPEG signature") }
        var width: Int32 = 0, height: Int32 = 0, outWidth: Int32 = 0, outHeight: Int32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let decoded = data.withUnsafeBytes { bytes in
            photomap_jpeg_decode_scaled(bytes.bindMemory(to: UInt8.self).baseAddress, UInt(bytes.count),
                                        UInt64(maximumPixels), UInt32(minimumLongSide), UInt32(minimumShortSide),
                                        &width, &height, &outWidth, &outHeight, &pixels, &message, message.count)
        }
        guard decoded == 1, let pixels else { throw ImageError.undecodable(Self.text(message)) }
        return ScaledImage(fullWidth: Int(width), fullHeight: Int(height),
                           plane: PixelPlane(owning: pixels, width: Int(outWidth), height: Int(outHeight),
                                             channels: 3))
    }

    /// A baseline JPEG of `image` at `quality` (1–100), alpha dropped.
    public static func encode(_ image: RGBAImage, quality: Int = 85) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let encoded = photomap_jpeg_encode(image.pixels, Int32(image.width), Int32(image.height), Int32(quality),
                                           &output, &size, &message, message.count)
        guard encoded == 1, let output else { throw ImageError.unencodable(Self.text(message)) }
        defer { free(output) }
        return Data(bytes: output, count: Int(size))
    }

    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
