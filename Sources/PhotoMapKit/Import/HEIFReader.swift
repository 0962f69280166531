// SPDX-License-Identifier: Apache-2.0
import CHeif
import Foundation

/// HEIC/HEIF through libheif (HEVC by libde265): the primary image decoded, and its EXIF block.
/// libheif applies the container's own rotation and mirroring (`irot`, `imir`) as it decodes, so the
/// EXIF orientation, which the HEIF specification makes informative only, is not applied again.
enum HEIFReader {
    /// The brands of an `ftyp` box photomap reads as HEIF (HEVC-coded stills and image collections).
    private static let brands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    /// Whether the bytes start with an ISO-BMFF `ftyp` box of a HEIF brand.
    static func recognises(_ data: Data) -> Bool {
        guard data.count >= 12, data[data.startIndex + 4..<data.startIndex + 8].elementsEqual("ftyp".utf8)
        else { return false }
        return brands.contains(String(decoding: data[data.startIndex + 8..<data.startIndex + 12], as: UTF8.self))
    }

    /// libheif's plugins, loaded once before the first file.
    private static let initialised: Void = { _ = heif_init(nil) }()

    /// Bytes a decode holds for each pixel of the primary image: libde265's planes and its own records of
    /// each block, then the RGB image made from them (a 12 MP HEIC took 95 MB to decode into RGB).
    static let bytesPerPixel = 8

    /// The bytes `read` would hold decoding the primary image, from its declared size; throws for a file
    /// it would refuse before decoding.
    static func decodeMemory(_ data: Data, maximumPixels: Int) throws -> Int {
        try withPrimaryImage(data, maximumPixels: maximumPixels) { _, width, height in
            width * height * bytesPerPixel
        }
    }

    /// The primary image as RGB, and its EXIF block in APP1 form (nil without one). A primary image
    /// declaring more than `maximumPixels`, or whose decode would hold more than `maximumMemory` bytes, is
    /// refused before it is decoded.
    static func read(_ data: Data, maximumPixels: Int, maximumMemory: Int = .max) throws -> (
        plane: PixelPlane, exif: Data?
    ) {
        try withPrimaryImage(data, maximumPixels: maximumPixels) { handle, width, height in
            let needed = width * height * bytesPerPixel
            guard needed <= maximumMemory else {
                throw ImageError.tooCostly(
                    "needs \((needed + (1 << 20) - 1) >> 20) MB to decode, over the limit of \(maximumMemory >> 20) MB")
            }
            let exif = exifBlock(of: handle)
            var image: OpaquePointer?
            try check(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil))
            guard let image else { throw ImageError.undecodable("HEIF image did not decode") }
            var stride: Int32 = 0
            guard let pixels = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), stride > 0
            else {
                heif_image_release(image)
                throw ImageError.undecodable("HEIF image has no RGB plane")
            }
            let plane = PixelPlane(
                base: pixels, width: Int(heif_image_get_width(image, heif_channel_interleaved)),
                height: Int(heif_image_get_height(image, heif_channel_interleaved)), channels: 3,
                stride: Int(stride), release: { heif_image_release(image) })
            guard plane.width > 0, plane.height > 0 else { throw ImageError.undecodable("HEIF image is empty") }
            return (plane, exif)
        }
    }

    /// `body` with the file's primary image handle and its declared size, once the container is read and
    /// the size is within `maximumPixels` (nothing is decoded yet).
    private static func withPrimaryImage<Result>(
        _ data: Data, maximumPixels: Int, _ body: (OpaquePointer, Int, Int) throws -> Result
    ) throws -> Result {
        _ = initialised
        guard !declaresOverlay(data) else { throw ImageError.undecodable("HEIF overlay images are not imported") }
        guard let context = heif_context_alloc() else { throw ImageError.undecodable("out of memory") }
        defer { heif_context_free(context) }
        // libheif's own limit on every side, which also bounds the canvas an overlay or grid declares apart
        // from its primary image's size (a fuzzed overlay asked for 1.4 GB without it).
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: Self.maximumSide(forPixels: maximumPixels)))
        return try data.withUnsafeBytes { bytes in
            try check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil))
            var handle: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &handle))
            guard let handle else { throw ImageError.undecodable("HEIF without a primary image") }
            defer { heif_image_handle_release(handle) }
            let width = Int(heif_image_handle_get_width(handle)), height = Int(heif_image_handle_get_height(handle))
            guard width > 0, height > 0, width * height <= maximumPixels else {
                throw ImageError.undecodable(
                    "declared size \(width)x\(height) is over the limit of "
                        + "\(maximumPixels / 1_000_000) megapixels")
            }
            return try body(handle, width, height)
        }
    }

    /// The longest side allowed for images of at most `pixels` pixels: a panorama four times as long as
    /// it is high, and never over 16,384 (libheif 1.15 limits sides only, not their product).
    static func maximumSide(forPixels pixels: Int) -> Int {
        min(Int((Double(pixels) * 4).squareRoot()), 16_384)
    }

    /// Whether the file's `meta` box names an overlay item (`iovl`): its canvas is declared apart from the
    /// primary image's size, and libheif 1.15 allocates it unchecked. No camera writes one.
    static func declaresOverlay(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            // Top-level boxes: a 4-byte big-endian size (1: a 64-bit size follows; 0: to the end), a 4-byte type.
            while offset + 8 <= bytes.count {
                var size =
                    Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                    | Int(bytes[offset + 3])
                if size == 0 { size = bytes.count - offset }
                if size == 1, offset + 16 <= bytes.count {
                    size = (8..<16).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
                }
                guard size >= 8 else { return false }
                let end = size > bytes.count - offset ? bytes.count : offset + size
                if bytes[(offset + 4)..<(offset + 8)].elementsEqual("meta".utf8) {
                    let box = bytes[offset..<end]
                    return box.indices.dropLast(3).contains { box[$0..<($0 + 4)].elementsEqual("iovl".utf8) }
                }
                offset = end
            }
            return false
        }
    }

    /// The first EXIF metadata block: a 4-byte big-endian offset to the TIFF header, then EXIF.
    private static func exifBlock(of handle: OpaquePointer) -> Data? {
        guard heif_image_handle_get_number_of_metadata_blocks(handle, "Exif") > 0 else { return nil }
        var id: heif_item_id = 0
        guard heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1 else { return nil }
        let size = heif_image_handle_get_metadata_size(handle, id)
        guard size > 4, size <= 16 << 20 else { return nil }
        var block = Data(count: size)
        let read = block.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, id, $0.baseAddress) }
        guard read.code == heif_error_Ok else { return nil }
        let skip = Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3])
        guard skip <= size - 4 - 8 else { return nil }
        return Data(ExifReader.header) + block[(4 + skip)...]
    }

    private static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        throw ImageError.undecodable(
            error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")
    }
}
