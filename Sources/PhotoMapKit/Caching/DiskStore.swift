import Foundation

/// The thumbnails' files: `{root}/{first two hex digits}/{SHA-256 of the key}`, written to a hidden
/// temporary file in the same folder and renamed into place, so no reader ever sees half a file.
/// Each shard folder has one `.lock` file that processes take before fetching into it; temporary
/// (`.tmp-…`) files sit beside the entries and are never entries.
struct DiskStore: Sendable {
    /// Shard folders known to exist, so each is created (and checked) once per process.
    private let createdFolders = CreatedFolders()

    /// One cached image on disk.
    struct Entry: Sendable {
        let url: URL
        let bytes: Int
        /// The last time it was used (its modification time, refreshed on hits).
        let lastUsed: Date
    }

    let root: URL

    /// Hex digits naming a shard folder: 16 folders. Each new folder costs an inode in a block group
    /// of its own on ext4, which made 256 shards cost more than the downloads on a cold cache;
    /// 16 keep folders small (a 512 MB cache of 3 KB squares is ~11,000 files a folder).
    static let shardDigits = 1

    /// The entry's file for a key; the name is a hash, so no server-supplied text shapes the path.
    func file(for key: String) -> URL {
        let hash = SHA256.hex(key)
        // Built as a string: URL.appendingPathComponent costs more than the hit check itself.
        return URL(fileURLWithPath: "\(root.path)/\(hash.prefix(Self.shardDigits))/\(hash)", isDirectory: false)
    }

    /// The lock processes take before fetching the entry: one of 256 in `.locks/` (by the first two hex
    /// digits of its name), not one per entry, since creating and removing a lock file per image would
    /// double the file-system work. `cache clear` never removes them: a lock file deleted while held
    /// would let a second process lock a new one and download the same image.
    func lockPath(for file: URL) -> String {
        "\(root.path)/.locks/\(file.lastPathComponent.prefix(2)).lock"
    }

    /// Whether `file` holds a whole image by its first and last bytes: a PNG signature and IEND chunk,
    /// or a JPEG's SOI and EOI markers. This is the cheap check made on every hit, and it catches the
    /// usual damage (truncation); a full decode happens before storing and in `cache verify`.
    func holdsImage(_ file: URL) -> Bool {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= 20 else { return false }
        var head = [UInt8](repeating: 0, count: 8), tail = [UInt8](repeating: 0, count: 12)
        guard pread(descriptor, &head, 8, 0) == 8, pread(descriptor, &tail, 12, off_t(status.st_size) - 12) == 12 else { return false }
        return ImageDecoder.isWhole(head: head, tail: tail)
    }

    /// Marks a hit for the LRU order; skipped when it was marked in the last minute, to spare the disk.
    func touch(_ file: URL) {
        var status = stat()
        guard stat(file.path, &status) == 0, Date().timeIntervalSince1970 - Double(status.st_mtim.tv_sec) > 60 else { return }
        utimes(file.path, nil)
    }

    /// Writes `data` as the entry `file`, whole or not at all (`AtomicFile`).
    func write(_ data: Data, to file: URL) throws(ThumbnailError) {
        try createFolder(of: file)
        do {
            try AtomicFile.write(data, to: file)
        } catch where error.code == .ENOENT {
            // Another process's `cache clear` removed the shard folder: make it again, once.
            try createFolder(of: file, again: true)
            do {
                try AtomicFile.write(data, to: file)
            } catch {
                throw Self.writeError(error.code.rawValue, path: file.deletingLastPathComponent().path)
            }
        } catch {
            throw Self.writeError(error.code.rawValue, path: file.deletingLastPathComponent().path)
        }
    }

    /// Creates the folder `file` goes in (`again`: even if this process made it before).
    func createFolder(of file: URL, again: Bool = false) throws(ThumbnailError) {
        let folder = file.deletingLastPathComponent()
        guard again || !createdFolders.contains(folder.path) else { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw Self.writeError((error as NSError).underlyingErrorCode ?? EIO, path: folder.path)
        }
        createdFolders.insert(folder.path)
    }

    /// Every entry (lock and temporary files excluded).
    func entries() -> [Entry] {
        let manager = FileManager.default
        guard let shards = try? manager.contentsOfDirectory(atPath: root.path) else { return [] }
        var result: [Entry] = []
        for shard in shards where shard.count == Self.shardDigits {
            let folder = root.appendingPathComponent(shard)
            for name in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] where Self.isEntryName(name) {
                let url = folder.appendingPathComponent(name)
                var status = stat()
                guard stat(url.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
                result.append(Entry(url: url, bytes: Int(status.st_size),
                                    lastUsed: Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)))
            }
        }
        return result
    }

    /// Removes least-recently-used entries until at most `maximumBytes` remain (never `keeping`, the
    /// entry just stored for a waiting caller); returns what went.
    @discardableResult
    func evict(downTo maximumBytes: Int, keeping: URL? = nil) -> (entries: Int, bytes: Int) {
        let all = entries().sorted { $0.lastUsed < $1.lastUsed }
        var total = all.reduce(0) { $0 + $1.bytes }
        var removed = (entries: 0, bytes: 0)
        for entry in all where total > maximumBytes && entry.url.path != keeping?.path {
            guard unlink(entry.url.path) == 0 else { continue }
            total -= entry.bytes
            removed.entries += 1
            removed.bytes += entry.bytes
        }
        return removed
    }

    /// Removes every entry and leftover temporary file (not the locks); returns how many entries went.
    @discardableResult
    func removeAll() -> Int {
        let count = entries().count
        let manager = FileManager.default
        for shard in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] where shard.count == Self.shardDigits {
            try? manager.removeItem(at: root.appendingPathComponent(shard))
        }
        createdFolders.removeAll()
        return count
    }

    /// Temporary files left by a killed process (older than a minute, so never one being written).
    @discardableResult
    func removeAbandonedTemporaryFiles() -> Int {
        let manager = FileManager.default
        var removed = 0
        for shard in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] where shard.count == Self.shardDigits {
            let folder = root.appendingPathComponent(shard)
            for name in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(".tmp-") {
                let path = folder.appendingPathComponent(name).path
                var status = stat()
                if stat(path, &status) == 0, Date().timeIntervalSince1970 - Double(status.st_mtim.tv_sec) > 60, unlink(path) == 0 {
                    removed += 1
                }
            }
        }
        return removed
    }

    static func isEntryName(_ name: String) -> Bool {
        name.count == 64 && name.allSatisfy(\.isHexDigit)
    }

    /// ENOSPC and EDQUOT are "disk full"; anything else names the failing call's reason.
    static func writeError(_ code: Int32, path: String) -> ThumbnailError {
        if code == ENOSPC || code == EDQUOT { return .diskFull(path: path) }
        return .writeFailed(path: path, reason: String(cString: strerror(code)))
    }
}

private extension NSError {
    var underlyingErrorCode: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.underlyingErrorCode
    }
}

/// Paths of folders already created.
private final class CreatedFolders: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var paths = Set<String>()

    func contains(_ path: String) -> Bool { lock.withLock { paths.contains(path) } }
    func insert(_ path: String) { lock.withLock { _ = paths.insert(path) } }
    func removeAll() { lock.withLock { paths.removeAll() } }
}
