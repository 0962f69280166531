// SPDX-License-Identifier: Apache-2.0
import Foundation

/// An image answered from the cache: its file open for reading, or the bytes just stored.
public struct CachedImage: Sendable {
    /// Where the image's bytes are.
    public enum Contents: Sendable {
        /// The entry on disk, open.
        case file(OpenFile)
        /// The bytes as checked and stored (a fetch hands them back rather than opening the file again).
        case bytes(Data)
    }

    /// Its name in the cache (the SHA-256 of its URL): an ETag that changes only with the URL.
    public let name: String
    /// Its bytes, open or in memory.
    public let contents: Contents
    /// Its size.
    public let bytes: Int
    /// PNG or JPEG.
    public let format: ImageDecoder.Format
}
