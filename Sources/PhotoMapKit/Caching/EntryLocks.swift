// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization

/// Cross-process locks on single cache entries, so processes sharing a cache folder fetch each
/// image once: one byte of one lock file per entry (its offset taken from the entry's hash), held
/// with an open-file-description lock (`F_OFD_SETLK`). Such locks belong to the open file, not to a
/// thread or process: any thread may release what another took, two processes conflict only on the
/// same entry, and the kernel drops them when a process dies (kill -9 included). The lock file is
/// never removed: a lock file deleted while held would let a second process lock a new one.
final class EntryLocks: Sendable {
    /// What trying a lock found.
    enum Attempt {
        case acquired
        /// Another process holds it: it is fetching the entry now.
        case heldElsewhere
        /// The file system has no such locks (some FUSE, 9p and network mounts): go ahead unlocked.
        case unsupported
    }

    /// How long to wait for another process before going ahead without the lock: a stopped process
    /// (Ctrl-Z) must not hang every other one; the cost is at worst a second download.
    static let patience: TimeInterval = 30

    /// `F_OFD_SETLK` from <bits/fcntl-linux.h> (Linux ≥ 3.15): Glibc's Swift module hides it,
    /// since it is declared only under _GNU_SOURCE.
    private static let setLockCommand: Int32 = 37

    private let path: String
    private let descriptor: Int32
    private let warn: @Sendable (String) -> Void
    private let warned = Atomic<Bool>(false)

    /// Opens (creating) the lock file at `path`; `warn` hears once that locks are unsupported.
    init(path: String, warn: @escaping @Sendable (String) -> Void) throws(ThumbnailError) {
        self.path = path
        self.warn = warn
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ThumbnailError.writing(errno, path: path) }
    }

    deinit {
        close(descriptor)
    }

    /// Tries to lock the entry named `name` (its 64-hex-digit hash) without waiting.
    func tryLock(_ name: String) throws(ThumbnailError) -> Attempt {
        let attempt = try change(name, to: F_WRLCK)
        if attempt == .unsupported, !warned.exchange(true, ordering: .relaxed) {
            warn("the cache folder's file system has no record locks: processes sharing it may fetch an image twice")
        }
        return attempt
    }

    /// Releases the entry's lock.
    func unlock(_ name: String) {
        _ = try? change(name, to: F_UNLCK)
    }

    /// Sets the entry's byte to `type`.
    private func change(_ name: String, to type: Int32) throws(ThumbnailError) -> Attempt {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        // 60 bits of the hash: a positive offset, far apart for different entries.
        lock.l_start = off_t(UInt64(name.prefix(15), radix: 16) ?? 0)
        lock.l_len = 1
        while fcntl(descriptor, Self.setLockCommand, &lock) != 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EACCES { return .heldElsewhere }
            if errno == EINVAL || errno == ENOLCK || errno == EOPNOTSUPP { return .unsupported }
            throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        return .acquired
    }
}
