// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A file opened to be imported, read within bounds decided before its bytes arrive: only a regular
/// file (a FIFO, a device or a folder swapped in since the walk is refused unread), its format told by
/// its first bytes (nothing more is read of anything else), and never more than the size `fstat` gave
/// it plus one byte (files of `/proc` say 0 and never end; one that grew since is refused). Used on one
/// thread; the descriptor closes with it.
final class PhotoFile {
    /// What opening a file found.
    enum Opened {
        /// A JPEG or HEIC, by its first bytes, of at most the size allowed.
        case photo(PhotoFile)
        /// A readable regular file that is no JPEG or HEIC.
        case other
        /// Not read, and why.
        case refused(String)
    }

    /// Its format, by its first bytes.
    let kind: PhotoFileReader.Kind
    /// Its size when opened.
    let size: Int
    private let descriptor: Int32

    private init(descriptor: Int32, size: Int, kind: PhotoFileReader.Kind) {
        self.descriptor = descriptor
        self.size = size
        self.kind = kind
    }

    deinit { close(descriptor) }

    /// Opens the file at `path`, reading only the few bytes that tell its format; a photo of more than
    /// `maximumBytes` is refused.
    static func open(_ path: [UInt8], maximumBytes: Int) -> Opened {
        // Non-blocking: opening a FIFO put where a file was would otherwise wait for a writer.
        let descriptor = Foundation.open(FileWalker.cString(path), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .refused("cannot be read: \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return .refused("not a regular file")
        }
        let size = Int(info.st_size)
        guard size > 0 else {
            close(descriptor)
            return .refused("empty file")
        }
        // Enough for either signature: JPEG's 3 bytes, HEIF's `ftyp` box head and brand.
        var head = Data(count: min(size, 12))
        let read = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard read >= 0 else {
            close(descriptor)
            return .refused("cannot be read: \(String(cString: strerror(errno)))")
        }
        guard let kind = PhotoFileReader.kind(of: head.prefix(read)) else {
            close(descriptor)
            return .other
        }
        guard size <= maximumBytes else {
            close(descriptor)
            return .refused("larger than \(maximumBytes >> 20) MB")
        }
        return .photo(PhotoFile(descriptor: descriptor, size: size, kind: kind))
    }

    /// Why a file's bytes could not be had.
    struct ReadFailure: Error, CustomStringConvertible {
        /// The reason, as the import's report gives it.
        let description: String
    }

    /// The file's bytes, `size` of them; throws `ReadFailure` if it now holds more or fewer (it changed
    /// while read) or cannot be read.
    func bytes() throws -> Data {
        var data = Data(count: size + 1)
        let count = try data.withUnsafeMutableBytes { buffer -> Int in
            var total = 0
            while total < buffer.count {
                let read = pread(
                    descriptor, buffer.baseAddress?.advanced(by: total), buffer.count - total, off_t(total))
                if read < 0 && errno == EINTR { continue }
                guard read >= 0 else {
                    throw ReadFailure(description: "cannot be read: \(String(cString: strerror(errno)))")
                }
                if read == 0 { break }
                total += read
            }
            return total
        }
        guard count == size else { throw ReadFailure(description: "changed while it was read") }
        data.count = count
        return data
    }
}
