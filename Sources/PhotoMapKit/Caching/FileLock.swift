import Foundation

/// An exclusive `flock(2)` on a file, so processes sharing a cache folder take turns on one entry.
final class FileLock {
    private let descriptor: Int32

    /// Blocks until the lock on `path` is held (the file is created if needed).
    init(path: String) throws(ThumbnailError) {
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DiskStore.writeError(errno, path: path) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(descriptor)
                throw DiskStore.writeError(code, path: path)
            }
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
