// SPDX-License-Identifier: Apache-2.0
import CPNG
import Foundation

/// PNG through libpng: written with its simplified API (`png_image_*`), which reports errors by
/// return value; read with its classic API inside a C function that owns the setjmp.
public enum PNGCodec {
    /// The eight bytes every PNG file starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG file holding `image`.
    public static func encode(_ image: RGBAImage) throws -> Data {
        var control = png_image()
        control.version = UInt32(PNG_IMAGE_VERSION)
        control.width = UInt32(image.width)
        control.height = UInt32(image.height)
        control.format = photomap_png_format_rgba
        var size = 0
        // First call measures, second call writes.
        guard png_image_write_to_memory(&control, nil, &size, 0, image.pixels, 0, nil) != 0, size > 0 else {
            throw ImageError.unencodable(message(of: control))
        }
        var output = Data(count: size)
        let written = output.withUnsafeMutableBytes { buffer in
            png_image_write_to_memory(&control, buffer.baseAddress, &size, 0, image.pixels, 0, nil)
        }
        guard written != 0 else { throw ImageError.unencodable(message(of: control)) }
        return output.prefix(size)
    }

    /// The image in a PNG file's bytes; throws for anything truncated or corrupt.
    public static func decode(_ data: Data, maximumSide: Int = ImageDecoder.maximumSide) throws -> RGBAImage {
        var pixels: UnsafeMutablePointer<UInt8>?
        let size = try read(data, maximumSide: maximumSide, pixels: &pixels)
        guard let pixels else { throw ImageError.undecodable("no pixels") }
        return RGBAImage(takingMallocedPixels: pixels, width: size.width, height: size.height)
    }

    /// The size of the image in a PNG file's bytes, after checking it as fully as a decode does
    /// (every CRC, every row inflated with a valid filter type, through IEND) without libpng and
    /// without unfiltering: a third of the CPU the cache spent per stored image went to libpng's rows.
    public static func check(
        _ data: Data,
        maximumSide: Int = ImageDecoder.maximumSide
    ) throws -> (width: Int, height: Int) {
        try read(data, maximumSide: maximumSide, pixels: nil)
    }

    /// One entry for both (`photomap_png_decode`, which runs `photomap_png_check` first): a decode
    /// accepts exactly what the check accepts.
    private static func read(
        _ data: Data, maximumSide: Int,
        pixels: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
    )
        throws -> (width: Int, height: Int)
    {
        guard data.starts(with: signature) else { throw ImageError.undecodable("no PNG signature") }
        var width: UInt32 = 0, height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let read = data.withUnsafeBytes { bytes in
            photomap_png_decode(
                bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, UInt32(maximumSide),
                &width, &height,
                pixels, &message, message.count)
        }
        switch read {
        case 1: return (Int(width), Int(height))
        case 2: throw ImageError.implausibleSize(width: Int(width), height: Int(height))
        default:
            throw ImageError.undecodable(
                String(
                    decoding: message.prefix(while: { $0 != 0 })
                        .map { UInt8(bitPattern: $0) },
                    as: UTF8.self))
        }
    }

    private static func message(of control: png_image) -> String {
        withUnsafeBytes(of: control.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
