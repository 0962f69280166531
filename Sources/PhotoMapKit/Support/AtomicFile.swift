import Foundation

/// Writes a file whole or not at all: a hidden temporary file in the same folder, renamed into place
/// with rename(2), so no reader ever sees half a file. There is no fsync: a crash can lose the newest
/// files but never leaves a partial one under the final name, and every file written here (cache
/// entries, pages, listings) can be made again. (Foundation's atomic write syncs each file, which made
/// an export of 10,000 photos spend a third of its time waiting for the disk.)
enum AtomicFile {
    /// Writes `data` at `file`; the error is the failing call's errno.
    static func write(_ data: Data, to file: URL) throws(POSIXError) {
        let staged = try StagedFile(replacing: file)
        try staged.write(data)
        try staged.commit()
    }
}

/// A file written piece by piece that appears under its name only when `commit()` succeeds; until
/// then it is a hidden temporary file beside it, removed if the writer gives up (or is dropped).
public final class StagedFile {
    /// The file it will replace.
    public let file: URL
    private let temporary: String
    private var descriptor: Int32

    /// Starts writing a new version of `file`; the error is the failing call's errno.
    public init(replacing file: URL) throws(POSIXError) {
        self.file = file
        temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".tmp-\(file.lastPathComponent)-\(UUID().uuidString)").path
        descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.code(errno) }
    }

    /// Appends text as UTF-8.
    public func write(_ text: String) throws(POSIXError) {
        try write(Data(text.utf8))
    }

    /// Appends bytes, all of them (short writes and EINTR are retried).
    public func write(_ data: Data) throws(POSIXError) {
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        var failure: Int32?
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if let failure { throw Self.code(failure) }
    }

    /// Closes the file and renames it into place.
    public func commit() throws(POSIXError) {
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        let closed = close(descriptor)
        descriptor = -1
        // close(2) is where some file systems report a failed write (NFS, quotas).
        guard closed == 0, rename(temporary, file.path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw Self.code(failure)
        }
    }

    deinit {
        guard descriptor >= 0 else { return }
        close(descriptor)
        unlink(temporary)
    }

    private static func code(_ value: Int32) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: value) ?? .EIO)
    }
}
