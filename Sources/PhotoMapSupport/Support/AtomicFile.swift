// SPDX-License-Identifier: Apache-2.0
import CSystem
import Foundation
import Synchronization

/// Writes a file whole or not at all (`StagedFile`: a nameless file linked in, or a hidden temporary
/// file renamed), so no reader ever sees half a file. There is no fsync: a crash can lose the newest
/// files but never leaves a partial one under the final name, and every file written here (cache
/// entries, pages, listings) can be made again, so waiting for the disk on each (as Foundation's atomic
/// write does) buys nothing.
package enum AtomicFile {
    /// Writes `data` at `file`; the error is the failing call's errno.
    package static func write(_ data: Data, to file: URL) throws(POSIXError) {
        try write(data, toPath: file.path)
    }

    /// Writes `data` at `path`; the error is the failing call's errno.
    package static func write(_ data: Data, toPath path: String) throws(POSIXError) {
        try write(data, to: StagedFile(replacingPath: path))
    }

    /// Writes `data` as the file `name` in an open folder; the error is the failing call's errno.
    package static func write(_ data: Data, named name: String, in folder: some FolderDescriptor) throws(POSIXError) {
        try write(data, to: StagedFile(replacing: name, in: folder))
    }

    private static func write(_ data: Data, to staged: StagedFile) throws(POSIXError) {
        try staged.write(data)
        try staged.commit()
    }
}

/// A file written piece by piece that appears under its name only when `commit()` succeeds; until
/// then it is a file without a name in its folder (`O_TMPFILE`), or where the file system cannot make
/// one, a hidden temporary file beside it, removed if the writer gives up (or is dropped).
///
/// The nameless file is linked in by `commit()` with one `linkat`: the folder changes once, where a named
/// one is made and then renamed (three changes to the folder, each under its lock, which writers on
/// every core wait for).
public final class StagedFile {
    /// The path it will replace (relative to its folder, for a file made in an open folder).
    public let path: String
    private let temporary: String
    private var descriptor: Int32
    /// Whether the file has no name yet (`O_TMPFILE`): `temporary` was never made.
    private let isNameless: Bool
    /// The folder that `path` and the temporary file are relative to (`openat`, `renameat`); nil for
    /// the working directory.
    private let folder: (any FolderDescriptor)?
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
    /// kernel walks one name to create and link it in, not the whole path.
    convenience init(replacing name: String, in folder: some FolderDescriptor) throws(POSIXError) {
        try self.init(path: name, in: folder)
    }

    private init(path: String, in folder: (any FolderDescriptor)?) throws(POSIXError) {
        self.path = path
        self.folder = folder
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path.utf8.index(after: $0) } ?? path.startIndex
        let number = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        temporary = "\(path[..<slash]).tmp-\(path[slash...])-\(Self.processID)-\(number)"
        let directory = folder?.descriptor ?? AT_FDCWD
        if Self.canLinkNamelessFiles {
            let parent = slash == path.startIndex ? "." : String(path[..<path.utf8.index(before: slash)])
            // Readable too: should linking it in fail, its bytes are copied (`commit()`).
            descriptor = openat(directory, parent.isEmpty ? "/" : parent, Self.namelessFlag | O_RDWR | O_CLOEXEC, 0o644)
            // A file system without nameless files says so with EOPNOTSUPP (EISDIR before Linux 3.11):
            // the named temporary file then. Any other failure (ENOENT, EACCES, ENOSPC) is the caller's.
            if descriptor >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
                isNameless = true
                guard descriptor >= 0 else { throw Self.code(errno) }
                return
            }
        }
        isNameless = false
        descriptor = openat(directory, temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.code(errno) }
    }

    private static let namelessFlag = photomap_o_tmpfile()
    /// A nameless file is linked in through /proc/self/fd (linkat's AT_EMPTY_PATH needs a capability):
    /// without /proc, or without the flag, files are named from the start.
    private static let canLinkNamelessFiles = namelessFlag != 0 && access("/proc/self/fd", X_OK) == 0

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

    /// Appends all of `buffer`.
    private func append(_ buffer: UnsafeRawBufferPointer) throws(POSIXError) {
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        let failure = Self.write(buffer, to: descriptor)
        if failure != 0 { throw Self.code(failure) }
    }

    /// Writes all of `buffer` to `descriptor` (short writes and EINTR are retried); 0 or errno.
    private static func write(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        guard let base = buffer.baseAddress else { return 0 }
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// The status of the file written so far (`fstat`): its inode, size and time stay the same through
    /// `commit()`'s rename.
    public func status() throws(POSIXError) -> stat {
        var status = stat()
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        guard fstat(descriptor, &status) == 0 else { throw Self.code(errno) }
        return status
    }

    /// Closes the file and renames it into place (a nameless one: links it in).
    public func commit() throws(POSIXError) {
        guard descriptor >= 0 else { throw POSIXError(.EBADF) }
        if isNameless { return try linkNameless() }
        let closed = close(descriptor)
        descriptor = -1
        // close(2) is where some file systems report a failed write (NFS, quotas).
        guard closed == 0 else {
            let failure = errno
            unlinkat(folderDescriptor, temporary, 0)
            throw Self.code(failure)
        }
        let failure = renameTemporary()
        if failure != 0 { throw Self.code(failure) }
    }

    /// Renames the file at the temporary name to `path`, removing it should that fail; 0 or errno.
    private func renameTemporary() -> Int32 {
        guard renameat(folderDescriptor, temporary, folderDescriptor, path) != 0 else { return 0 }
        let failure = errno
        unlinkat(folderDescriptor, temporary, 0)
        return failure
    }

    /// Links the nameless file in at `path`. link(2) never replaces a file: when one is there, the file
    /// gets its temporary name and is renamed over it. Should the link fail otherwise (a /proc that does
    /// not link, a folder gone), the bytes are copied to a named temporary file and renamed, whose error,
    /// if any, is the one thrown. The descriptor stays open until then (the link goes through it).
    private func linkNameless() throws(POSIXError) {
        let source = "/proc/self/fd/\(descriptor)"
        var failure: Int32 = 0
        if linkat(AT_FDCWD, source, folderDescriptor, path, AT_SYMLINK_FOLLOW) != 0 {
            failure = errno == EEXIST ? linkReplacing(source) : copyToNamedFile()
        }
        let closed = close(descriptor)
        descriptor = -1
        // close(2) is where some file systems report a failed write (NFS, quotas).
        if failure == 0 && closed != 0 {
            failure = errno
            unlinkat(folderDescriptor, path, 0)
        }
        if failure != 0 { throw Self.code(failure) }
    }

    /// Links the nameless file at its temporary name and renames it over the file at `path`; 0 or errno.
    private func linkReplacing(_ source: String) -> Int32 {
        guard linkat(AT_FDCWD, source, folderDescriptor, temporary, AT_SYMLINK_FOLLOW) == 0 else { return errno }
        return renameTemporary()
    }

    /// Copies the nameless file's bytes to a file at its temporary name and renames it to `path`; 0 or errno.
    private func copyToNamedFile() -> Int32 {
        let copy = openat(folderDescriptor, temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        guard copy >= 0 else { return errno }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var offset: off_t = 0
        var failure: Int32 = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if count < 0 { failure = errno }
                break
            }
            failure = buffer.withUnsafeBytes { Self.write(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: copy) }
            if failure != 0 { break }
            offset += off_t(count)
        }
        if close(copy) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            unlinkat(folderDescriptor, temporary, 0)
            return failure
        }
        return renameTemporary()
    }

    deinit {
        guard descriptor >= 0 else { return }
        close(descriptor)
        // A nameless file goes with its descriptor.
        if !isNameless { unlinkat(folderDescriptor, temporary, 0) }
    }

    private static func code(_ value: Int32) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: value) ?? .EIO)
    }
}
