// SPDX-License-Identifier: Apache-2.0
/// When and with which camera a photo was taken, kept in the catalog beside its record so that `geotag`
/// locates it from tracks without reading the image again.
public struct PhotoCapture: Sendable, Equatable {
    /// The camera's clock reading, if the photo has a DateTimeOriginal.
    public var clock: PhotoClock?
    /// EXIF Make.
    public var make: String?
    /// EXIF Model.
    public var model: String?

    /// The capture of a photo's EXIF fields.
    public init(_ fields: ExifFields) {
        clock = fields.clock
        make = fields.make
        model = fields.model
    }
}
