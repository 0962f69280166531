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
    public static func format(of data: some DataProtocol) -> Format? {
        let head = Array(data.prefix(8))
        if head.starts(with: PNGCodec.signature) { return .png }
        if head.starts(with: JPEGCodec.signature) { return .jpeg }
        return nil
    }

    /// Whether a file with this head (first 8 bytes) and tail (last 12 bytes) ends where its format
    /// ends: a PNG's IEND chunk, a JPEG's EOI marker. The cheap whole-file check made on cache hits.
    public static func isWhole(head: some Collection<UInt8>, tail: some Collection<UInt8>) -> Bool {
        let tail = Array(tail)
        guard tail.count == 12 else { return false }
        switch format(of: Array(head)) {
        case .png?: return tail[4...7].elementsEqual("IEND".utf8)
        case .jpeg?: return tail[10] == 0xFF && tail[11] == 0xD9
        case nil: return false
        }
    }

    /// `data` without anything after its format's end (some servers append bytes), or nil when the end
    /// marker is missing; so what is stored always passes `isWhole`.
    public static func trimmedToEnd(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        switch format(of: bytes) {
        case .png?:
            // IEND is the last chunk: its type, then a 4-byte CRC.
            guard let end = lastIndex(of: Array("IEND".utf8), in: bytes), end + 8 <= bytes.count else { return nil }
            return data.prefix(end + 8)
        case .jpeg?:
            guard let end = lastIndex(of: [0xFF, 0xD9], in: bytes) else { return nil }
            return data.prefix(end + 2)
        case nil:
            return nil
        }
    }

    private static func lastIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return stride(from: bytes.count - pattern.count, through: 0, by: -1).first { start in
            pattern.indices.allSatisfy { bytes[start + $0] == pattern[$0] }
        }
    }

    /// The decoded image; throws unless the bytes are a complete PNG or JPEG with no side over `maximumSide`.
    public static func decode(_ data: Data, maximumSide: Int = maximumSide) throws -> (RGBAImage, Format) {
        switch format(of: data) {
        case .png?:
            return (try PNGCodec.decode(data, maximumSide: maximumSide), .png)
        case .jpeg?:
            return (try JPEGCodec.decode(data, maximumSide: maximumSide), .jpeg)
        case nil:
            let start = String(decoding: data.prefix(16), as: UTF8.self)
            let hint = start.lowercased().contains("<") ? " (it looks like HTML)" : ""
            throw ImageError.undecodable("neither PNG nor JPEG\(hint)")
        }
    }
}
