// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("PNG through libpng")
struct PNGCodecTests {
    func gradient(width: Int, height: Int) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                image.pixels[offset] = UInt8(x * 255 / max(width - 1, 1))
                image.pixels[offset + 1] = UInt8(y * 255 / max(height - 1, 1))
                image.pixels[offset + 2] = 40
            }
        }
        return image
    }

    @Test("an encoded image decodes to the same pixels")
    func roundTrip() throws {
        let image = gradient(width: 31, height: 17)
        let data = try PNGCodec.encode(image)
        #expect(data.starts(with: PNGCodec.signature))
        #expect(try PNGCodec.decode(data) == image)
    }

    @Test("a truncated file, or bytes that are not a PNG, are refused with a reason")
    func corruptRefused() throws {
        let data = try PNGCodec.encode(gradient(width: 64, height: 64))
        #expect(throws: ImageError.self) { try PNGCodec.decode(data.prefix(data.count / 2)) }
        #expect(throws: ImageError.undecodable("no PNG signature")) {
            try PNGCodec.decode(Data("<html>Service unavailable</html>".utf8))
        }
        var flipped = data
        flipped[data.count / 2] ^= 0xFF
        #expect(throws: ImageError.self) { try PNGCodec.decode(flipped) }
    }

    @Test(
        "the check (no pixels kept) accepts what decodes and refuses the same damage, with the size first",
        arguments: [false, true])
    func checkWithoutPixels(jpeg: Bool) throws {
        let image = gradient(width: 64, height: 48)
        let data = jpeg ? try JPEGCodec.encode(image) : try PNGCodec.encode(image)
        let size = try ImageDecoder.check(data)
        #expect(size.width == 64 && size.height == 48 && size.format == (jpeg ? .jpeg : .png))
        #expect(throws: ImageError.self) { try ImageDecoder.check(data.prefix(data.count / 2)) }
        var flipped = data
        for offset in stride(from: data.count / 3, to: data.count * 2 / 3, by: 7) { flipped[offset] ^= 0x5A }
        #expect(throws: ImageError.self) { try ImageDecoder.check(flipped) }
        #expect(throws: ImageError.self) { try ImageDecoder.check(data, maximumSide: 32) }
        if !jpeg {
            #expect(throws: ImageError.implausibleSize(width: 64, height: 48)) {
                try PNGCodec.check(data, maximumSide: 32)
            }
        }
    }

    @Test("the JPEG check (decoded at 1/8 scale) refuses exactly what a full decode refuses, and gives the full size")
    func jpegCheckMatchesDecode() throws {
        let data = try JPEGCodec.encode(TestImages.pattern(width: 75, height: 75, seed: 9))
        #expect(try JPEGCodec.check(data) == (width: 75, height: 75))
        var random = SystemRandomNumberGenerator()
        var refused = 0
        for _ in 0..<300 {
            var damaged = data
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                damaged[Int.random(in: 2..<data.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            let decodes = (try? JPEGCodec.decode(damaged)) != nil
            let checks = (try? JPEGCodec.check(damaged)) != nil
            #expect(decodes == checks, "check and decode disagree on \(damaged.base64EncodedString())")
            if !decodes { refused += 1 }
        }
        #expect(refused > 0)
    }

    @Test("an ancillary chunk with a bad CRC is damage too (libpng alone would only warn)")
    func ancillaryCRC() throws {
        let data = try PNGCodec.encode(gradient(width: 16, height: 16))
        // A tEXt chunk put after IHDR (8 bytes of signature, then 25 of IHDR).
        func withText(crc: UInt32) -> Data {
            let body = Data("tEXt".utf8) + Data("Title\0photomap".utf8)
            var chunk = Data([0, 0, 0, UInt8(body.count - 4)]) + body
            chunk.append(contentsOf: withUnsafeBytes(of: crc.bigEndian, Array.init))
            return data.prefix(33) + chunk + data.dropFirst(33)
        }
        let good = withText(crc: Self.crc32(Data("tEXt".utf8) + Data("Title\0photomap".utf8)))
        #expect(try ImageDecoder.check(good).width == 16)
        #expect(throws: ImageError.self) { try ImageDecoder.check(withText(crc: 0)) }
    }

    /// The CRC-32 PNG chunks carry (ISO 3309), bit by bit.
    private static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test("decode refuses what the check refuses: a damaged chunk after the image's rows (scripts/fuzz images)")
    func damageAfterTheRows() throws {
        // A 1×1 PNG whose IEND is mangled into a chunk of an invalid type: libpng's simplified reader
        // stops after the rows and accepted it, while the check (and so the cache) refused it.
        let data = Data([
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
            0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
            0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xD0,
            0x00, 0x00, 0x04, 0x81, 0x01, 0x80, 0x2C, 0x55, 0xCE, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
            0xA9, 0xA9, 0xA9, 0xA9, 0xA9, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
        ])
        #expect(throws: ImageError.self) { try ImageDecoder.check(data) }
        #expect(throws: ImageError.self) { try ImageDecoder.decode(data) }
    }

    @Test("a text chunk whose length claims 1.1 GB is refused without libpng allocating it (scripts/fuzz images)")
    func chunkClaimingAGigabyte() throws {
        // A 2×2 PNG whose tEXt chunk's length field says 1,147,757,325 bytes: libpng allocated that much
        // before reading on; photomap's reader skips the chunks it never uses, unread.
        let data = Data([
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
            0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x04, 0x00, 0x00, 0x00, 0xD8, 0xBF, 0xC5,
            0xAF, 0x44, 0x69, 0x63, 0x0D, 0x74, 0x45, 0x58, 0x74, 0x43, 0x81, 0x00, 0x6D, 0x65, 0x00, 0x00,
            0x00, 0x0C, 0x6E, 0x74, 0x00, 0x68, 0x65, 0x6C, 0x6C, 0x6F, 0xE6, 0xFF, 0xAE, 0x24, 0x00, 0x00,
            0x00, 0x13, 0x7A, 0x54, 0x58, 0x74, 0x54, 0x69, 0x7C, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
            0xFF, 0xDB, 0x00, 0x43, 0x00, 0x08, 0x06, 0x06, 0x07, 0x06, 0x05, 0xA1, 0x08, 0x23, 0x42, 0xB1,
            0xC1, 0x15, 0x52, 0x6C, 0x65, 0x00, 0x00, 0x78, 0x9C, 0xAB, 0xA8, 0xA0, 0x3D, 0x00, 0x00, 0x40,
            0x1B, 0x2E, 0xE1, 0x26, 0x85, 0xD4, 0x3E, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x0D, 0x74, 0xC5, 0x78,
            0x00, 0x00, 0xAF, 0x00, 0x45, 0x58, 0x74, 0x43, 0x13, 0xE8, 0x04, 0x5D, 0x60, 0x8E, 0xDB, 0xCE,
            0x00, 0x00, 0x05, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
        ])
        #expect(throws: ImageError.self) { try ImageDecoder.check(data) }
        #expect(throws: ImageError.self) { try ImageDecoder.decode(data) }
    }

    /// A PNG made by hand: `rows` (each starting with its filter type) stored uncompressed in a zlib
    /// stream, cut into IDAT chunks of `chunkBytes`, with `extra` chunks (type, data) after IHDR.
    private static func handMade(
        width: Int, height: Int, colorType: UInt8, depth: UInt8 = 8, interlaced: Bool = false,
        rows: [UInt8], chunkBytes: Int = 1 << 20, extra: [(String, [UInt8])] = [],
        checksumOffBy: UInt32 = 0
    ) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> Data {
            let typed = Data(type.utf8) + Data(body)
            return Data(withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init)) + typed
                + Data(withUnsafeBytes(of: crc32(typed).bigEndian, Array.init))
        }
        func u32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).bigEndian, Array.init) }
        // zlib: header, one stored block, Adler-32.
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in rows {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let length = UInt16(rows.count)
        let stream =
            [
                0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF),
                UInt8(~length >> 8),
            ]
            + rows + u32(Int((b << 16 | a) &+ checksumOffBy))
        var png =
            Data(signature)
            + chunk("IHDR", u32(width) + u32(height) + [depth, colorType, 0, 0, interlaced ? 1 : 0])
        for (type, body) in extra { png += chunk(type, body) }
        for start in stride(from: 0, to: stream.count, by: chunkBytes) {
            png += chunk("IDAT", Array(stream[start..<min(start + chunkBytes, stream.count)]))
        }
        return png + chunk("IEND", [])
    }

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    @Test(
        "a zlib checksum that does not match the rows is not what decides (the chunk CRCs cover every byte): check and decode agree"
    )
    func zlibChecksumNotCompared() throws {
        let rows = Array([[UInt8]](repeating: [0, 10, 20, 30], count: 3).joined())
        let wrong = Self.handMade(width: 3, height: 3, colorType: 0, rows: rows, checksumOffBy: 1)
        #expect(try ImageDecoder.check(wrong).width == 3)
        #expect(try ImageDecoder.decode(wrong).0.pixels.prefix(4) == [10, 10, 10, 255])
    }

    @Test(
        "the check follows the rows: interlaced passes, IDAT cut anywhere, and refuses bad filters, missing or extra rows"
    )
    func checkFollowsRows() throws {
        // 5×5 grey, 8-bit: one row is a filter byte and 5 bytes.
        let row: [UInt8] = [0, 128, 128, 128, 128, 128]
        let plain = Self.handMade(
            width: 5, height: 5, colorType: 0,
            rows: Array([[UInt8]](repeating: row, count: 5).joined()))
        #expect(try ImageDecoder.check(plain).width == 5)
        let (image, _) = try ImageDecoder.decode(plain)
        #expect(Array(image.pixels.prefix(4)) == [128, 128, 128, 255])
        // Adam7 on 5×5: passes of 1×1, 1×1, 2×1, 1×2, 3×1, 2×3 and 5×2 pixels.
        let passes = [(1, 1), (1, 1), (2, 1), (1, 2), (3, 1), (2, 3), (5, 2)]
        let interlacedRows = passes.flatMap { width, height in
            Array([[UInt8]](repeating: [0] + [UInt8](repeating: 200, count: width), count: height).joined())
        }
        let interlaced = Self.handMade(width: 5, height: 5, colorType: 0, interlaced: true, rows: interlacedRows)
        #expect(try ImageDecoder.check(interlaced).height == 5)
        #expect(try ImageDecoder.decode(interlaced).0.pixels.prefix(4) == [200, 200, 200, 255])
        // The stream cut into one-byte IDAT chunks (zero-length ones allowed between) reads the same.
        #expect(
            try ImageDecoder.check(
                Self.handMade(
                    width: 5, height: 5, colorType: 0, interlaced: true,
                    rows: interlacedRows, chunkBytes: 1)
            ).width == 5)
        var badFilter = Array([[UInt8]](repeating: row, count: 5).joined())
        badFilter[12] = 5
        let refused = [
            Self.handMade(width: 5, height: 5, colorType: 0, rows: badFilter),
            Self.handMade(width: 5, height: 5, colorType: 0, rows: Array([[UInt8]](repeating: row, count: 4).joined())),
            Self.handMade(width: 5, height: 5, colorType: 0, rows: Array([[UInt8]](repeating: row, count: 6).joined())),
            Self.handMade(width: 5, height: 5, colorType: 0, interlaced: true, rows: Array(interlacedRows.dropLast())),
            // A palette image without its palette; an unknown critical chunk.
            Self.handMade(
                width: 5, height: 5, colorType: 3,
                rows: Array([[UInt8]](repeating: [0, 0, 0, 0, 0, 0], count: 5).joined())),
            Self.handMade(
                width: 5, height: 5, colorType: 0, rows: Array([[UInt8]](repeating: row, count: 5).joined()),
                extra: [("ABCD", [1, 2])]),
        ]
        for data in refused {
            #expect(throws: ImageError.self) { try ImageDecoder.check(data) }
            #expect(throws: ImageError.self) { try ImageDecoder.decode(data) }
        }
        let paletted = Self.handMade(
            width: 5, height: 5, colorType: 3,
            rows: Array([[UInt8]](repeating: [0, 0, 0, 0, 0, 0], count: 5).joined()),
            extra: [("PLTE", [255, 0, 0]), ("prVt", [9])])
        #expect(try ImageDecoder.decode(paletted).0.pixels.prefix(4) == [255, 0, 0, 255])
    }

    @Test("the centre square of a landscape image crops the sides and averages the pixels it covers")
    func centreSquare() {
        // Left and right thirds red, middle third blue: the square is the middle third, all blue.
        var image = RGBAImage(width: 300, height: 100)
        for y in 0..<100 {
            for x in 0..<300 {
                let offset = (y * 300 + x) * 4
                if (100..<200).contains(x) { image.pixels[offset + 2] = 255 } else { image.pixels[offset] = 255 }
            }
        }
        let square = image.centreSquare(side: 75)
        #expect(square.width == 75 && square.height == 75)
        #expect(square.pixels[0] == 0 && square.pixels[2] == 255 && square.pixels[3] == 255)
        // A 2×1 checker averaged down to one pixel is the mean of the two.
        let pair = RGBAImage(
            width: 2, height: 2,
            pixels: [0, 0, 0, 255, 200, 100, 50, 255, 0, 0, 0, 255, 200, 100, 50, 255])
        #expect(pair.centreSquare(side: 1).pixels == [100, 50, 25, 255])
    }
}
