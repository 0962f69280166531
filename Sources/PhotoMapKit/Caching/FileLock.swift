import Foundation

/// An exclusive `flock(2)` on a file, so processes sharing a cache folder take turns on one entry.
final class FileLock {
    /// How long to wait for another process before going ahead without the lock: a stopped process
    /// (Ctrl-Z) must not hang every other one; the cost is at worst a second download.
    static let patience: TimeInterval = 30

    private let descriptor: Int32

    /// Waits (polling) until the lock on `path` is held, or gives up after `patience` and returns nil.
    init?(path: String, patience: TimeInterval = FileLock.patience) throws(ThumbnailError) {
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DiskStore.writeError(errno, path: path) }
        let deadline = Date().addingTimeInterval(patience)
        var pause: UInt32 = 1_000
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(descriptor)
                return nil
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
