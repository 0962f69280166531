import Foundation

/// A small file read and rewritten under an exclusive `flock(2)`, for state several processes share
/// (the rate bucket, the recently viewed photos): each holder sees the last writer's whole contents.
enum LockedFile {
    /// Opens (creating, with its folder) the file at `path`, holds its lock while `body` runs with the
    /// descriptor, then releases it. Errors are the failing call's errno.
    static func withLock<Result>(_ path: String, _ body: (Int32) throws -> Result) throws -> Result {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body(descriptor)
    }

    /// The reason an error of `withLock` gives, as strerror says it.
    static func reason(_ error: any Error) -> String {
        (error as? POSIXError).map { String(cString: strerror($0.code.rawValue)) } ?? (error as NSError).localizedDescription
    }

    /// The whole contents of the open file.
    static func contents(of descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = pread(descriptor, &buffer, buffer.count, offset)
            guard count > 0 else { return data }
            data.append(contentsOf: buffer[..<count])
            offset += off_t(count)
        }
    }

    /// Replaces the open file's contents with `data`.
    static func replace(_ descriptor: Int32, with data: Data) throws {
        let written = data.withUnsafeBytes { ftruncate(descriptor, 0) == 0 ? pwrite(descriptor, $0.baseAddress, $0.count, 0) : -1 }
        guard written == data.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
