// SPDX-License-Identifier: Apache-2.0
import CMicroHTTPD
import Foundation
import PhotoMapKit

/// A POST's body as it arrives, kept up to `limit` bytes (64 KB): enough for any form or JSON request
/// photomap takes, and decided before the first byte, from Content-Length when the client sends one and
/// by counting when it sends chunks. MHD hands it in pieces on one connection's thread at a time.
final class Upload: @unchecked Sendable {
    /// The most bytes a request body may have.
    static let limit = 64 << 10
    /// The answer to a larger one.
    static let tooLarge = ServerResponse.text(413, "A request body may be at most 64 KB.")

    // Touched only by MHD's callbacks for its connection, one at a time.
    private(set) var bytes = Data()
    /// Whether more than `limit` bytes came (the request is then answered 413 and not handled).
    private(set) var overflowed = false

    /// Whether a Content-Length field (absent: unknown yet, counted as it comes) is within `limit`.
    static func fits(_ contentLength: UnsafePointer<CChar>?) -> Bool {
        guard let contentLength else { return true }
        let text = String(cString: contentLength).trimmingCharacters(in: .whitespaces)
        guard let length = Int(text), length >= 0 else { return false }
        return length <= limit
    }

    /// Whether the request context `pointer` (not the headers-in marker) is an upload.
    static func holds(_ pointer: UnsafeMutableRawPointer) -> Bool {
        Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() is Upload
    }

    /// Adds a piece; past `limit`, the body is `overflowed` and this piece, those before and those after
    /// are dropped.
    func append(_ piece: UnsafePointer<CChar>?, count: Int) {
        guard !overflowed else { return }
        guard let piece, bytes.count + count <= Self.limit else {
            overflowed = true
            bytes = Data()
            return
        }
        bytes.append(UnsafeRawPointer(piece).assumingMemoryBound(to: UInt8.self), count: count)
    }
}
