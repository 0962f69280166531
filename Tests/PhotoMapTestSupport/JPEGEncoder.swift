import CJPEG
import Foundation
import PhotoMapKit

extension JPEGCodec {
    /// A baseline JPEG of `image` at `quality` (1–100), alpha dropped: the tests' JPEG files. photomap
    /// itself never writes JPEG (squares it crops are PNG), so the encoder lives here.
    public static func encode(_ image: RGBAImage, quality: Int = 85) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: 256)
        let encoded = photomap_jpeg_encode(image.pixels, Int32(image.width), Int32(image.height), Int32(quality),
                                           &output, &size, &message, message.count)
        guard encoded == 1, let output else {
            throw ImageError.unencodable(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                                as: UTF8.self))
        }
        defer { free(output) }
        return Data(bytes: output, count: Int(size))
    }
}
