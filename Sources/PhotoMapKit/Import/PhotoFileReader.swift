// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

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
    /// The memory reading photo files may hold at once in this process, whatever the number of cores:
    /// every file's bytes and every decode's buffers are reserved here before they are taken (by
    /// `import`'s workers and by `serve` remaking an image).
    static let budget = ByteBudget(capacity: 512 << 20)
    /// Held beside a decode's own buffers: the square and medium images made, and their JPEGs.
    static let imagesMadeBytes = 4 << 20
    /// The JPEG quality of the images made.
    static let quality = 85

    /// The format the bytes claim by their signature, or nil.
    public static func kind(of data: Data) -> Kind? {
        if data.starts(with: JPEGCodec.signature) { return .jpeg }
        if HEIFReader.recognises(data) { return .heif }
        return nil
    }

    /// The bytes `read(_:as:)` would hold decoding `data` (its pixels, the images made from them), from
    /// its header alone; throws for a header it refuses.
    public static func decodeMemory(of data: Data, as kind: Kind, maximumPixels: Int = maximumPixels) throws -> Int {
        switch kind {
        case .jpeg:
            return try JPEGCodec.scaledDecodeMemory(
                data, minimumLongSide: mediumSide, minimumShortSide: squareSide, maximumPixels: maximumPixels)
                + imagesMadeBytes
        case .heif:
            return try HEIFReader.decodeMemory(data, maximumPixels: maximumPixels) + imagesMadeBytes
        }
    }

    /// The file's fields and images; throws `ImageError` for an image that cannot be decoded whole, that
    /// declares more than `maximumPixels`, or whose decode would hold more than `maximumMemory` bytes, or
    /// (JPEG) take more scans than libjpeg-turbo advises.
    public static func read(
        _ data: Data, as kind: Kind, maximumPixels: Int = maximumPixels, maximumMemory: Int = .max
    ) throws -> ReadPhotoFile {
        let plane: PixelPlane
        var fields: ExifFields
        let decodeMemory = maximumMemory == .max ? .max : maximumMemory - imagesMadeBytes
        switch kind {
        case .jpeg:
            fields = JPEGSegments.exifBlock(in: data).map(ExifReader.read) ?? ExifFields()
            plane = try JPEGCodec.decodeScaled(
                data, minimumLongSide: mediumSide, minimumShortSide: squareSide,
                maximumPixels: maximumPixels, maximumMemory: decodeMemory
            ).plane
        case .heif:
            let read = try HEIFReader.read(data, maximumPixels: maximumPixels, maximumMemory: decodeMemory)
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

    /// The photo id of `file`'s bytes and, unless `isKnown(id)`, what `read(_:as:)` makes of them, holding
    /// no more of `budget` than it reserved: the file's bytes before they are read, then its decode's
    /// memory (known from the header) before it is decoded. A decode whose memory is not free at once is
    /// not waited for while holding the bytes (two readers could wait for each other): they are given
    /// back, the whole is waited for, and the file read again. Throws `ImageError.tooCostly` for a file
    /// needing more than the whole budget, `PhotoFile.ReadFailure` for one that changed while read.
    static func read(
        _ file: PhotoFile, within budget: ByteBudget = budget, unless isKnown: (String) -> Bool
    ) throws -> (id: String, read: ReadPhotoFile?) {
        var wanted = file.size
        for _ in 0..<2 {
            guard budget.reserve(wanted) else {
                throw ImageError.tooCostly(
                    "needs \((wanted + (1 << 20) - 1) >> 20) MB to read and decode, over the limit of "
                        + "\(budget.capacity >> 20) MB")
            }
            var held = wanted
            defer { budget.release(held) }
            let data = try file.bytes()
            let id = LocalPhotoID.of(data)
            if isKnown(id) { return (id, nil) }
            let needed = data.count + (try decodeMemory(of: data, as: file.kind))
            if needed > held {
                guard budget.reserveNow(needed - held) else {
                    wanted = needed
                    continue
                }
                held = needed
            }
            return (id, try read(data, as: file.kind, maximumMemory: held - data.count))
        }
        throw PhotoFile.ReadFailure(description: "changed while it was read")
    }
}
