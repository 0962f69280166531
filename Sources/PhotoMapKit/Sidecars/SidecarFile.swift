// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel
import PhotoMapSupport

/// A sidecar on disk: read with a bound decided before the bytes arrive, written whole or not at all
/// (a temporary file renamed over it). Originals are never opened for writing here.
enum SidecarFile {
    /// Sidecars larger than this are left alone: an XMP packet of a photo is a few kilobytes.
    static let maximumBytes = 1 << 20

    /// The bytes of the sidecar at `path`, or nil when there is none.
    static func read(_ path: String) throws(SidecarError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path: path, reason: "not a file") }
        guard info.st_size <= maximumBytes else { throw .tooLarge(path: path) }
        // One byte more than allowed: a file that grew since `fstat` is caught too.
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumBytes else { throw .tooLarge(path: path) }
        return Array(bytes[..<count])
    }

    /// The location the sidecar at `path` holds, or nil when there is no sidecar or it says none.
    static func location(at path: String) throws(SidecarError) -> SidecarLocation? {
        guard let bytes = try read(path) else { return nil }
        return try XMPDocument(bytes: bytes, path: path).location()
    }

    /// Writes `coordinate` (with `source`) into the sidecar at `path`: merged into the one there, or a new
    /// one; its folder made when missing. A sidecar that cannot be read or parsed is left as it is.
    static func write(_ coordinate: Coordinate?, source: LocationSource?, at path: String) throws(SidecarError) {
        var document = XMPDocument()
        if let bytes = try read(path) { document = try XMPDocument(bytes: bytes, path: path) }
        document.setLocation(coordinate, source: source)
        try save(document, at: path)
    }

    /// Takes what photomap wrote out of the sidecar at `path` (the location and its note; every other
    /// property stays), for a photo whose own GPS stands again; false when there is no sidecar.
    static func forget(at path: String) throws(SidecarError) -> Bool {
        guard let bytes = try read(path) else { return false }
        let document = try XMPDocument(bytes: bytes, path: path)
        document.setLocation(nil, source: nil)
        try save(document, at: path)
        return true
    }

    private static func save(_ document: XMPDocument, at path: String) throws(SidecarError) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .unwritable(path: path, reason: "its folder cannot be made")
        }
        do {
            try AtomicFile.write(Data(document.bytes()), toPath: path)
        } catch {
            throw .unwritable(path: path, reason: String(cString: strerror(error.code.rawValue)))
        }
    }
}
