import Dispatch
import Foundation

/// One photo file read for import: its EXIF fields and the two images pages show, made from one decode.
public struct ReadPhotoFile: Sendable {
    /// What its EXIF block says.
    public var fields: ExifFields
    /// The 75×75 centre square, JPEG.
    public var square: Data
    /// The image at most 500 px on its longer side, JPEG.
    public var medium: Data
    /// The medium image's width and height.
    public var mediumSize: (width: Int, height: Int)
}

/// Reads JPEG and HEIC files: EXIF through libexif, pixels through libjpeg-turbo (decoded at the
/// smallest scale the 500 px image needs: a 12 MP photo is decoded at 1/8) or libheif, the EXIF
/// orientation applied to the small images made from them.
public enum PhotoFileReader {
    /// The image formats imported.
    public enum Kind: String, Sendable {
        case jpeg, heif
    }

    /// Images declaring more pixels than this are refused unread (decompression bombs).
    public static let maximumPixels = 100_000_000
    /// The square's side, as Flickr's `url_sq`.
    static let squareSide = PhotoSize.square.squareSide ?? 75
    /// The medium image's longer side, as Flickr's `url_m`.
    static let mediumSide = 500
    /// Taken by each HEIF decode.
    private static let heifDecodes = DispatchSemaphore(value: 1)
    /// The JPEG quality of the images made.
    static let quality = 85

    /// The format the bytes claim by their signature, or nil.
    public static func kind(of data: Data) -> Kind? {
        if data.starts(with: JPEGCodec.signature) { return .jpeg }
        if HEIFReader.recognises(data) { return .heif }
        return nil
    }

    /// The file's fields and images; throws `ImageError` for an image that cannot be decoded whole, or
    /// declares more than `maximumPixels`.
    public static func read(_ data: Data, as kind: Kind, maximumPixels: Int = maximumPixels) throws -> ReadPhotoFile {
        // HEIF one file at a time: libheif decodes the whole image (a 12 MP HEIC takes ~150 MB until its
        // images are made), where a JPEG is decoded at 1/8 in a few MB.
        if kind == .heif { heifDecodes.wait() }
        defer { if kind == .heif { heifDecodes.signal() } }
        let plane: PixelPlane
        var fields: ExifFields
        switch kind {
        case .jpeg:
            fields = JPEGSegments.exifBlock(in: data).map(ExifReader.read) ?? ExifFields()
            plane = try JPEGCodec.decodeScaled(
                data, minimumLongSide: mediumSide, minimumShortSide: squareSide,
                maximumPixels: maximumPixels
            ).plane
        case .heif:
            let read = try HEIFReader.read(data, maximumPixels: maximumPixels)
            plane = read.plane
            fields = read.exif.map(ExifReader.read) ?? ExifFields()
            fields.orientation = 1
        }
        let square = plane.centreSquare(side: squareSide).oriented(fields.orientation)
        let medium = plane.fitted(within: mediumSide).oriented(fields.orientation)
        return ReadPhotoFile(
            fields: fields, square: try JPEGCodec.encode(square, quality: quality),
            medium: try JPEGCodec.encode(medium, quality: quality),
            mediumSize: (medium.width, medium.height))
    }
}
