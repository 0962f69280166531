import Foundation

/// Recognises an image by its magic bytes and decodes it fully: the check that keeps truncated
/// files, HTML error pages and corrupt bytes out of the cache.
public enum ImageDecoder {
    /// The image formats photomap accepts.
    public enum Format: String, Sendable {
        case png, jpeg

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

    /// The decoded image; throws unless the bytes are a complete PNG or JPEG of a plausible size.
    public static func decode(_ data: Data) throws -> (RGBAImage, Format) {
        switch format(of: data) {
        case .png?:
            return (try PNGCodec.decode(data), .png)
        case .jpeg?:
            return (try JPEGCodec.decode(data), .jpeg)
        case nil:
            let start = String(decoding: data.prefix(16), as: UTF8.self)
            let hint = start.lowercased().contains("<") ? " (it looks like HTML)" : ""
            throw ImageError.undecodable("neither PNG nor JPEG\(hint)")
        }
    }
}
