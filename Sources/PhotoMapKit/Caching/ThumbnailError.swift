// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapNetworking
import PhotoMapSupport

/// What can go wrong getting a square thumbnail. Nothing is ever stored when one of these happens.
public enum ThumbnailError: Error, CustomStringConvertible, Sendable, Equatable, WriteFailure {
    /// The record names no image to make a square from.
    case noImage(photoID: String)
    /// Only http and https images are fetched (never file:// or other schemes).
    case unsupportedURL(String)
    /// The download failed (status, connection, timeout).
    case download(HTTPError)
    /// The body is shorter or longer than its Content-Length.
    case lengthMismatch(url: String, expected: Int, received: Int)
    /// The bytes are not a complete, valid PNG or JPEG.
    case invalidImage(url: String, ImageError)
    /// The disk is full: the cache cannot keep the image.
    case diskFull(path: String)
    /// Writing to the cache folder failed for another reason.
    case writeFailed(path: String, reason: String)
    /// The embedded catalog could not give the image (its images not made: set-up not run).
    case catalog(FlickrError)
    /// An imported photo's image is not in the cache, and could not be made again: its file is gone or
    /// changed.
    case originalGone(photoID: String)
    /// The requester cancelled (other requesters of the same image are unaffected).
    case cancelled
    /// The image is not in the cache, and `--offline` makes no request to fetch it.
    case offline(url: String)

    /// What failed, with what (the command line adds what to do about it).
    public var description: String {
        switch self {
        case let .noImage(id): return "photo \(id) has no image URL to make a square from"
        case let .unsupportedURL(url): return "refusing \(url): only http and https images are fetched"
        case let .download(error): return error.description
        case let .lengthMismatch(url, expected, received):
            return "\(url) sent \(received) of the \(expected) bytes it announced; nothing was cached"
        case let .invalidImage(url, error): return "\(url) is \(error); nothing was cached"
        case let .diskFull(path): return "the disk holding the cache is full (\(path))"
        case let .writeFailed(path, reason): return "cannot write to the cache at \(path): \(reason)"
        case let .catalog(error): return error.description
        case let .originalGone(id): return "the file of imported photo \(id) is gone or changed since it was imported"
        case .cancelled: return "cancelled"
        case let .offline(url): return "\(url) is not in the cache, and --offline makes no request"
        }
    }
}
