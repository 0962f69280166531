// SPDX-License-Identifier: Apache-2.0
import PhotoMapSupport

/// What can go wrong writing map pages and sites.
public enum PageError: Error, CustomStringConvertible, Sendable, Equatable, WriteFailure {
    /// Leaflet (Debian's libjs-leaflet) is not installed.
    case leafletMissing(folder: String)
    /// photomap's own page assets or basemap are not beside the binary or in the checkout.
    case assetsMissing(String)
    /// A page or asset could not be written.
    case writeFailed(path: String, reason: String)
    /// The disk holding the site is full (ENOSPC, or the user's quota): the site keeps its previous
    /// pages wherever the new ones could not be written.
    case diskFull(path: String)

    /// What failed, with what (the command line adds what to do about it).
    public var description: String {
        switch self {
        case let .leafletMissing(folder):
            return "Leaflet is not installed in \(folder)"
        case let .assetsMissing(what):
            return "cannot find \(what)"
        case let .writeFailed(path, reason):
            return "cannot write \(path): \(reason)"
        case let .diskFull(path):
            return "the disk holding the site is full (writing \(path))"
        }
    }
}
