// SPDX-License-Identifier: Apache-2.0
/// What can go wrong reading or writing an image.
public enum ImageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The bytes are not a complete, valid image (libpng's or libjpeg's reason).
    case undecodable(String)
    /// The image decoded but its size is not believable for a photo.
    case implausibleSize(width: Int, height: Int)
    /// The image could not be encoded.
    case unencodable(String)
    /// Decoding the image would take more than photomap allows (memory, progressive scans): why.
    case tooCostly(String)

    /// A sentence a user can act on.
    public var description: String {
        switch self {
        case let .undecodable(reason): return "not a valid image: \(reason)"
        case let .implausibleSize(width, height): return "implausible image size \(width)×\(height)"
        case let .unencodable(reason): return "cannot encode the image: \(reason)"
        case let .tooCostly(reason): return "too costly to decode: \(reason)"
        }
    }
}
