// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Recognises an image by its magic bytes and decodes it fully: the check that keeps truncated
/// files, HTML error pages and corrupt bytes out of the cache.
public enum ImageDecoder {
    /// The image formats photomap accepts.
    public enum Format: String, Sendable {
        /// PNG (libpng).
        case png
        /// JPEG (libjpeg-turbo).
        case jpeg

        /// The file name extension for this format.
        public var fileExtension: String { self == .png ? "png" : "jpg" }
    }

    /// Neither side of a photo Flickr serves exceeds this (originals aside).
    public static let maximumSide = 12_000

    /// The format the bytes claim by their signature, or nil.
    public static func format(of data: some Collection<UInt8>) -> Format? {
        if data.starts(with: PNGCodec.signature) { return .png }
        if data.starts(with: JPEGCodec.signature) { return .jpeg }
        return nil
    }

    /// Whether a file with this head (first 8 bytes) and tail (last 12 bytes) ends where its format
    /// ends: a PNG's IEND chunk, a JPEG's EOI marker. The cheap whole-file check made on cache hits.
    public static func isWhole(head: some Collection<UInt8>, tail: some Collection<UInt8>) -> Bool {
        guard tail.count == 12 else { return false }
        switch format(of: head) {
        case .png?: return tail.dropFirst(4).prefix(4).elementsEqual("IEND".utf8)
        case .jpeg?: return tail.dropFirst(10).elementsEqual([0xFF, 0xD9])
        case nil: return false
        }
    }

    /// `data` without anything after its format's end (some servers append bytes), or nil when the end
    /// marker is missing; so what is stored always passes `isWhole`.
    public static func trimmedToEnd(_ data: Data) -> Data? {
        let end: [UInt8], trailer: Int
        switch format(of: data) {
        case .png?: (end, trailer) = (Array("IEND".utf8), 4)  // IEND is the last chunk: its type, then a 4-byte CRC
        case .jpeg?: (end, trailer) = ([0xFF, 0xD9], 0)
        case nil: return nil
        }
        let length: Int? = data.withUnsafeBytes { bytes in
            // Almost always the marker is where the file ends: the search starts there.
            var start = bytes.count - end.count - trailer
            while start >= 0 {
                if end.indices.allSatisfy({ bytes[start + $0] == end[$0] }) { return start + end.count + trailer }
                start -= 1
            }
            return nil
        }
        return length.map { $0 == data.count ? data : data.prefix($0) }
    }

    /// The decoded image; throws unless the bytes are a complete PNG or JPEG with no side over `maximumSide`.
    public static func decode(_ data: Data, maximumSide: Int = maximumSide) throws -> (RGBAImage, Format) {
        switch try recognised(data) {
        case .png: return (try PNGCodec.decode(data, maximumSide: maximumSide), .png)
        case .jpeg: return (try JPEGCodec.decode(data, maximumSide: maximumSide), .jpeg)
        }
    }

    /// The image's size and format after a check as thorough as a decode (every byte of the image
    /// data read and verified), keeping no pixels: what the cache runs before storing, and on use.
    public static func check(
        _ data: Data,
        maximumSide: Int = maximumSide
    ) throws -> (width: Int, height: Int, format: Format) {
        switch try recognised(data) {
        case .png:
            let size = try PNGCodec.check(data, maximumSide: maximumSide)
            return (size.width, size.height, .png)
        case .jpeg:
            let size = try JPEGCodec.check(data, maximumSide: maximumSide)
            return (size.width, size.height, .jpeg)
        }
    }

    private static func recognised(_ data: Data) throws -> Format {
        guard let format = format(of: data) else {
            let start = String(decoding: data.prefix(16), as: UTF8.self)
            let hint = start.lowercased().contains("<") ? " (it looks like HTML)" : ""
            throw ImageError.undecodable("neither PNG nor JPEG\(hint)")
        }
        return format
    }
}
