// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A small file several processes share (the rate bucket, the recently viewed photos). A change
/// is read, made and written under an exclusive `flock(2)` on a lock file beside it, and written
/// whole or not at all (`AtomicFile`): a reader needs no lock and sees the last writer's
/// whole contents, even after a crash mid-write.
package enum LockedFile {
    /// The contents of the file at `path`; nil when there is none (reading creates nothing).
    /// Errors are the failing call's errno.
    package static func read(_ path: String) throws(POSIXError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw code(errno)
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw code(errno) }
            guard count > 0 else { return data }
            data.append(contentsOf: buffer[..<count])
        }
    }

    /// Holds the lock while `change` turns the current contents (nil: no file yet) into new ones,
    /// written unless `change` gives nil; returns `change`'s value. Creates the folder as needed.
    package static func update<Value>(
        _ path: String,
        _ change: (Data?) throws -> (contents: Data?, value: Value)
    ) throws -> Value {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let descriptor = open(path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw code(errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw code(errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        let (contents, value) = try change(try read(path))
        if let contents { try AtomicFile.write(contents, toPath: path) }
        return value
    }

    /// The reason an error of `read` or `update` gives, as strerror says it.
    package static func reason(_ error: any Error) -> String {
        (error as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
            ?? (error as NSError).localizedDescription
    }

    private static func code(_ value: Int32) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: value) ?? .EIO)
    }
}
