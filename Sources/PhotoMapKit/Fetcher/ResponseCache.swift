// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Flickr's JSON answers kept as files of the cache folder, one per key, named by its hash; an
/// answer's age is its file's.
public struct ResponseCache: AnswerStore {
    /// The folder holding the answers (`{cache}/api`).
    public let directory: URL
    /// How long an answer counts as fresh.
    public let timeToLive: TimeInterval

    /// Creates a cache in `directory`.
    public init(directory: URL, timeToLive: TimeInterval) {
        self.directory = directory
        self.timeToLive = timeToLive
    }

    public func answer(for key: String, allowStale: Bool) -> Data? {
        let file = fileURL(for: key)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            let modified = attributes[.modificationDate] as? Date
        else { return nil }
        guard allowStale || Date().timeIntervalSince(modified) < timeToLive else { return nil }
        return try? Data(contentsOf: file)
    }

    /// Stores `answer` for `key` (`AtomicFile`).
    public func store(_ answer: Data, for key: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try AtomicFile.write(answer, to: fileURL(for: key))
    }

    /// Under an exclusive `flock(2)` on a lock file beside the answer's (`LockedFile`).
    public func update(_ key: String, _ merge: (Data?) throws -> Data?) throws {
        try LockedFile.update(fileURL(for: key).path) { kept in (try merge(kept), ()) }
    }

    public func allAnswers() -> [Data] {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "json" }.compactMap { try? Data(contentsOf: $0) }
    }

    /// The file's size, modification time and inode.
    public func version(for key: String) -> String? {
        var info = stat()
        guard stat(fileURL(for: key).path, &info) == 0 else { return nil }
        return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino)"
    }

    public var description: String { directory.path }

    public func remove(_ key: String) {
        try? FileManager.default.removeItem(at: fileURL(for: key))
    }

    /// Names are hashes, so nothing a server sends can shape a path.
    func fileURL(for key: String) -> URL {
        directory.appendingPathComponent(SHA256.hex(key) + ".json")
    }
}
