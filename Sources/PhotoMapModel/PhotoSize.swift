// SPDX-License-Identifier: Apache-2.0
/// The image sizes photomap uses, named by Flickr's `url_*` extras.
public enum PhotoSize: String, Sendable, CaseIterable, Hashable, Codable, CodingKeyRepresentable {
    /// 75×75 square crop (`url_sq`, URL suffix `_s`).
    case square = "sq"
    /// 150×150 square crop (`url_q`, URL suffix `_q`).
    case largeSquare = "q"
    /// Medium image (`url_m`), the one photo pages show.
    case medium = "m"

    /// The side of a square size in pixels; nil for the medium image.
    public var squareSide: Int? {
        switch self {
        case .square: return 75
        case .largeSquare: return 150
        case .medium: return nil
        }
    }

    /// The URL suffix Flickr uses for this size (misc.urls); medium (500 px) has none.
    public var urlSuffix: String {
        switch self {
        case .square: return "_s"
        case .largeSquare: return "_q"
        case .medium: return ""
        }
    }
}
