import Foundation
import Synchronization

/// Writes a file whole or not at all: a hidden temporary file in the same folder, renamed into place
/// with rename(2), so no reader ever sees half a file. There is no fsync: a crash can lose the newest
/// files but never leaves a partial one under the final name, and every file written here (cache
/// entries, pages) can be made again. (Foundation's atomic write syncs each file, which made an
/// export of 10,000 photos spend a third of its time waiting for the disk.)
enum AtomicFile {
    /// Numbers this process's temporary files: with the process id, a name no other writer uses.
    private static let counter = Atomic<Int>(0)
    private static let processID = getpid()

    /// Writes `data` at `file`; the error is the failing call's errno.
    static func write(_ data: Data, to file: URL) throws(POSIXError) {
        try write(data, toPath: file.path)
    }

    /// Writes `data` at `path`; the error is the failing call's errno.
    static func write(_ data: Data, toPath path: String) throws(POSIXError) {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let temporary = "\(path[..<slash]).tmp-\(path[slash...])-\(processID)-\(number)"
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw code(errno) }
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
        if close(descriptor) != 0 && failure == nil { failure = errno }
        if failure == nil && rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw code(failure)
        }
    }

    private static func code(_ value: Int32) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: value) ?? .EIO)
    }
}
