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

    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
