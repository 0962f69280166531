import Foundation
import Synchronization

/// Writes a file whole or not at all: a hidden temporary file in the same folder, renamed into place
/// with rename(2), so no reader ever sees half a file. There is no fsync: a crash can lose the newest
/// files but never leaves a partial one under the final name, and every file written here (cache
/// entries, pages, listings) can be made again. (Foundation's atomic write syncs each file, which made
/// an export of 10,000 photos spend a third of its time waiting for the disk.)
enum AtomicFile {
    /// Writes `data` at `file`; the error is the failing call's errno.
    static func write(_ data: Data, to file: URL) throws(POSIXError) {
        try write(data, toPath: file.path)
    }

    /// Writes `data` at `path`; the error is the failing call's errno.
    static func write(_ data: Data, toPath path: String) throws(POSIXError) {
        try write(data, to: StagedFile(replacingPath: path))
    }

    /// Writes `data` as the file `name` in an open folder; the error is the failing call's errno.
    static func write(_ data: Data, named name: String, in folder: OpenFolder) throws(POSIXError) {
        try write(data, to: StagedFile(replacing: name, in: folder))
    }

    private static func write(_ data: Data, to staged: StagedFile) throws(POSIXError) {
        try staged.write(data)
        try staged.commit()
    }
}

/// A file written piece by piece that appears under its name only when `commit()` succeeds; until
/// then it is a hidden temporary file beside it, removed if the writer gives up (or is dropped).
public final class StagedFile {
    /// The path it will replace (relative to its folder, for a file made in an open folder).
    public let path: String
    private let temporary: String
    private var descriptor: Int32
    /// The folder that `path` and the temporary file are relative to (`openat`, `renameat`); nil for
    /// the working directory.
    private let folder: OpenFolder?
    private var folderDescriptor: Int32 { folder?.descriptor ?? AT_FDCWD }

    /// Numbers this process's temporary files: with the process id, a name no other writer uses.
    private static let counter = Atomic<Int>(0)
    private static let processID = getpid()

    /// Starts writing a new version of `file`; the error is the failing call's errno.
    public convenience init(replacing file: URL) throws(POSIXError) {
        try self.init(replacingPath: file.path)
    }

    /// Starts writing a new version of the file at `path`; the error is the failing call's errno.
    public convenience init(replacingPath path: String) throws(POSIXError) {
        try self.init(path: path, in: nil)
    }

    /// Starts writing a new version of the file `name` in an open folder (which it keeps open): the
    /// kernel walks one name to create and rename it, not the whole path.
    convenience init(replacing name: String, in folder: OpenFolder) throws(POSIXError) {
        try self.init(path: name, in: folder)
    }

    private init(path: String, in folder: OpenFolder?) throws(POSIXError) {
        self.path = path
        self.folder = folder
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path.utf8.index(after: $0) } ?? path.startIndex
        let number = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        temporary = "\(path[..<slash]).tmp-\(path[slash...])-\(Self.processID)-\(number)"
        descriptor = openat(folder?.descriptor ?? AT_FDCWD, temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.code(errno) }
    }

    /// Appends text as UTF-8.
    public func write(_ text: String) throws(POSIXError) {
        var text = text
        var failure: POSIXError?
        text.withUTF8 { buffer in
            do throws(POSIXError) { try append(UnsafeRawBufferPointer(buffer)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Appends bytes.
    public func write(_ data: Data) throws(POSIXError) {
        var failure: POSIXError?
        data.withUnsafeBytes { buffer in
            do throws(POSIXError) { try append(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Appends all of `buffer` (short writes and EINTR are retried).
    private func append(_ buffer: UnsafeRawBufferPointer) throws(POSIXError) {
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.code(errno)
            }
            offset += written
        }
    }

    /// The status of the file written so far (`fstat`): its inode, size and time stay the same through
    /// `commit()`'s rename.
    public func status() throws(POSIXError) -> stat {
        var status = stat()
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        guard fstat(descriptor, &status) == 0 else { throw Self.code(errno) }
        return status
    }

    /// Closes the file and renames it into place.
    public func commit() throws(POSIXError) {
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        let closed = close(descriptor)
        descriptor = -1
        // close(2) is where some file systems report a failed write (NFS, quotas).
        guard closed == 0, renameat(folderDescriptor, temporary, folderDescriptor, path) == 0 else {
            let failure = errno
            unlinkat(folderDescriptor, temporary, 0)
            throw Self.code(failure)
        }
    }

    deinit {
        guard descriptor >= 0 else { return }
        close(descriptor)
        unlinkat(folderDescriptor, temporary, 0)
    }

    private static func code(_ value: Int32) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: value) ?? .EIO)
    }
}
