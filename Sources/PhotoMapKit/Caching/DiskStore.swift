// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import Synchronization

/// The thumbnails' files: `{root}/{first hex digit}/{SHA-256 of the key}`, each written whole before
/// it appears (`StagedFile`), so no reader ever sees half a file; temporary (`.tmp-…`) files, where the
/// file system cannot make nameless ones, sit beside the entries and are never entries. Sizes and last uses
/// are kept by `CacheJournal`, cross-process locks by `EntryLocks`.
final class DiskStore: Sendable {
    /// Shard folders known to exist, so each is created (and checked) once per process.
    private let createdFolders = Locked(Set<String>())
    /// The shard folders opened so far, by their hex digit: entries are opened relative to them.
    private let shardFolders = Locked([OpenFolder?](repeating: nil, count: 1 << (4 * DiskStore.shardDigits)))

    /// One cached image on disk.
    struct Entry: Sendable {
        let url: URL
        let bytes: Int
        /// When it was stored (its modification time): its last use, for a file the journal lacks.
        let lastUsed: Date
    }

    let root: URL
    private let rootPath: String
    /// Each shard folder's path, by its index: made once, not for every store.
    private let shardPaths: [String]

    init(root: URL) {
        self.root = root
        rootPath = root.path
        shardPaths = (0..<(1 << (4 * Self.shardDigits))).map { [rootPath] shard in
            let digits = String(shard, radix: 16)
            return "\(rootPath)/\(String(repeating: "0", count: Self.shardDigits - digits.count))\(digits)"
        }
    }

    /// Hex digits naming a shard folder: 16 folders. Each new folder costs an inode in a block group
    /// of its own on ext4, so a cold cache pays for every folder it makes; 16 still keep folders small
    /// (a 512 MB cache of 3 KB squares is ~11,000 files a folder).
    static let shardDigits = 1

    /// One entry opened by the cheap check.
    struct OpenedImage {
        let file: OpenFile
        let bytes: Int
        let format: ImageDecoder.Format
        /// Its modification time (seconds since 1970): when it was stored, or when a run last noted its use.
        let modified: Double
    }

    /// The entry's file for its name (the hash).
    func file(named name: String) -> URL {
        URL(fileURLWithPath: path(named: name), isDirectory: false)
    }

    /// The entry's path for its name: built as a string, since URL's path operations cost more than
    /// the hit check itself.
    func path(named name: String) -> String {
        "\(rootPath)/\(name.prefix(Self.shardDigits))/\(name)"
    }

    /// The entry named `name` opened for reading when it holds a whole image by its first and last bytes
    /// (a PNG signature and IEND chunk, or a JPEG's SOI and EOI markers), else nil. This is the cheap
    /// check made on every hit, and it catches the usual damage (truncation); a full decode happens
    /// before storing and in `cache verify`. `noticingRemoval`: a miss asks whether the shard folder
    /// was removed meanwhile (see `openEntry`); a look that a checked one follows on a miss (a request's
    /// first, then its download's) may skip that question.
    func openWholeImage(named name: String, noticingRemoval: Bool = true) -> OpenedImage? {
        guard let (file, status) = openEntry(named: name, noticingRemoval: noticingRemoval), status.st_size >= 20
        else { return nil }
        let size = Int(status.st_size)
        // A square (a few KB) is read in one call; a larger file by its first and last bytes.
        let format = withUnsafeTemporaryAllocation(
            of: UInt8.self,
            capacity: Self.wholeReadBytes
        ) { buffer -> ImageDecoder.Format? in
            guard let base = buffer.baseAddress else { return nil }
            if size <= buffer.count {
                guard pread(file.descriptor, base, size, 0) == size else { return nil }
                return Self.wholeFormat(head: buffer[0..<8], tail: buffer[(size - 12)..<size])
            }
            guard pread(file.descriptor, base, 8, 0) == 8,
                pread(file.descriptor, base + 8, 12, off_t(size) - 12) == 12
            else {
                return nil
            }
            return Self.wholeFormat(head: buffer[0..<8], tail: buffer[8..<20])
        }
        return format.map {
            OpenedImage(
                file: file, bytes: size, format: $0,
                modified: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        }
    }

    /// Opens the entry `name` relative to its shard folder's descriptor (`openat`): the kernel walks
    /// one name instead of the cache's whole path on every hit and miss. A folder removed since it was
    /// opened (another process's `cache clear`) holds nothing any more, so a miss asks whether it was
    /// (`fstat` of the folder), and if so opens it again and looks once more: a long-running `serve`
    /// never misses for good.
    private func openEntry(named name: String, noticingRemoval: Bool) -> (file: OpenFile, status: stat)? {
        guard let shard = Self.shard(of: name) else { return OpenFile.opened(path(named: name)) }
        guard let folder = shardFolder(shard) else { return nil }
        if let opened = OpenFile.opened(name, in: folder) { return opened }
        guard noticingRemoval, errno == ENOENT, folder.isRemoved, let again = openShardFolder(shard) else { return nil }
        return OpenFile.opened(name, in: again)
    }

    /// The index of the shard folder holding entry `name` (its first hex digits), or nil for a name
    /// that is no hash.
    private static func shard(of name: String) -> Int? {
        Int(name.prefix(shardDigits), radix: 16)
    }

    /// Shard folder `shard`, as opened before or opened now.
    private func shardFolder(_ shard: Int) -> OpenFolder? {
        shardFolders.withLock { $0[shard] } ?? openShardFolder(shard)
    }

    /// Opens shard folder `shard` (nil while it does not exist: the next look tries again).
    private func openShardFolder(_ shard: Int) -> OpenFolder? {
        let folder = OpenFolder(path: shardPaths[shard])
        shardFolders.withLock { $0[shard] = folder }
        return folder
    }

    /// Files up to this size are read whole by the cheap check: one system call instead of two.
    private static let wholeReadBytes = 16 << 10

    private static func wholeFormat(
        head: Slice<UnsafeMutableBufferPointer<UInt8>>,
        tail: Slice<UnsafeMutableBufferPointer<UInt8>>
    ) -> ImageDecoder.Format? {
        ImageDecoder.isWhole(head: head, tail: tail) ? ImageDecoder.format(of: head) : nil
    }

    /// Writes `data` as the entry `name`, whole or not at all: staged and linked in relative to its shard
    /// folder's descriptor (`openat`, `linkat`), so the kernel walks one name per call, not the
    /// cache's whole path.
    func write(_ data: Data, named name: String) throws(ThumbnailError) {
        guard let shard = Self.shard(of: name) else {
            throw .writeFailed(path: path(named: name), reason: "not an entry's name")
        }
        let folderPath = shardPaths[shard]
        try createFolder(folderPath)
        do {
            try Self.write(data, named: name, in: shardFolder(shard))
        } catch  where error.code == .ENOENT {
            // Another process's `cache clear` removed the shard folder (creating in it fails with ENOENT):
            // make it again and reopen it, once.
            try createFolder(folderPath, again: true)
            do {
                try Self.write(data, named: name, in: openShardFolder(shard))
            } catch {
                throw ThumbnailError.writing(error.code.rawValue, path: folderPath)
            }
        } catch {
            throw ThumbnailError.writing(error.code.rawValue, path: folderPath)
        }
    }

    /// Writes the entry in `folder`; a folder that could not be opened fails with the open's errno.
    private static func write(_ data: Data, named name: String, in folder: OpenFolder?) throws(POSIXError) {
        guard let folder else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        try AtomicFile.write(data, named: name, in: folder)
    }

    /// Creates the folder `file` goes in.
    func createFolder(of file: URL) throws(ThumbnailError) {
        try createFolder(file.deletingLastPathComponent().path)
    }

    /// Creates `folder` (`again`: even if this process made it before).
    private func createFolder(_ folder: String, again: Bool = false) throws(ThumbnailError) {
        guard again || !createdFolders.withLock({ $0.contains(folder) }) else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw ThumbnailError.writing((error as NSError).underlyingErrorCode ?? EIO, path: folder)
        }
        createdFolders.withLock { _ = $0.insert(folder) }
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
                result.append(
                    Entry(
                        url: url, bytes: Int(status.st_size),
                        lastUsed: Date(
                            timeIntervalSince1970: Double(status.st_mtim.tv_sec)
                                + Double(status.st_mtim.tv_nsec) / 1e9)))
            }
        }
        return result
    }

    /// Removes every entry and leftover temporary file (not the locks); returns how many entries went.
    @discardableResult
    func removeAll() -> Int {
        let count = entries().count
        let manager = FileManager.default
        for shard in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] where shard.count == Self.shardDigits {
            try? manager.removeItem(at: root.appendingPathComponent(shard))
        }
        createdFolders.withLock { $0.removeAll() }
        shardFolders.withLock { $0 = $0.map { _ in nil } }
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
                if stat(path, &status) == 0, Date().timeIntervalSince1970 - Double(status.st_mtim.tv_sec) > 60,
                    unlink(path) == 0
                {
                    removed += 1
                }
            }
        }
        return removed
    }

    static func isEntryName(_ name: String) -> Bool {
        name.count == 64 && name.allSatisfy(\.isHexDigit)
    }

}

private extension NSError {
    var underlyingErrorCode: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.underlyingErrorCode
    }
}

/// An open file descriptor with one owner: closed when released, unless taken first (by MHD, which
/// then closes it).
public final class OpenFile: Sendable {
    fileprivate let descriptor: Int32
    private let taken = Atomic<Bool>(false)

    private init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Opens the file at `path` for reading, with its size in bytes; nil when it cannot be.
    package static func reading(_ path: String) -> (file: OpenFile, bytes: Int)? {
        opened(path).map { ($0.file, Int($0.status.st_size)) }
    }

    /// Opens the file at `path` (relative to `folder` when given) for reading, with its status; nil
    /// when it cannot be, with `errno` telling why.
    static func opened(_ path: String, in folder: OpenFolder? = nil) -> (file: OpenFile, status: stat)? {
        let descriptor = openat(folder?.descriptor ?? AT_FDCWD, path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let file = OpenFile(descriptor)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return (file, status)
    }

    /// Sets its modification (and access) time to now; a file this process may not change keeps its own.
    func touch() {
        _ = futimens(descriptor, nil)
    }

    deinit {
        if !taken.load(ordering: .relaxed) { close(descriptor) }
    }

    /// The descriptor, now the caller's to close; nil when it was taken already.
    package func take() -> Int32? {
        taken.exchange(true, ordering: .relaxed) ? nil : descriptor
    }
}

/// An open folder, closed when the last holder lets go: a thread may still be opening a file in it
/// when another replaces it.
final class OpenFolder: FolderDescriptor {
    let descriptor: Int32

    /// Opens the folder at `path`; nil when it cannot be (with no descriptor to close).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Whether the folder was removed since it was opened (a removed folder has no links left).
    var isRemoved: Bool {
        var status = stat()
        return fstat(descriptor, &status) != 0 || status.st_nlink == 0
    }
}
