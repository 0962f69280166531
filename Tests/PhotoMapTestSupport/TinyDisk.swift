// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A tiny tmpfs, so writes run out of space for real (ENOSPC). Mounting needs root: tests that use
/// it are enabled only `if: TinyDisk.canMount`, and other tests simulate a full disk without it.
public final class TinyDisk {
    /// Where it is mounted.
    public let url: URL

    /// Whether this process may mount one.
    public static let canMount: Bool = {
        guard getuid() == 0, let disk = try? TinyDisk(kilobytes: 16) else { return false }
        _ = disk
        return true
    }()

    /// Mounts a tmpfs of `kilobytes` in a new temporary folder.
    public init(kilobytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("photomap-tinydisk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", url.path]) else {
            try? FileManager.default.removeItem(at: url)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Gives the disk `kilobytes` (room made after a full disk).
    public func resize(kilobytes: Int) throws {
        guard Self.run("/bin/mount", ["-o", "remount,size=\(kilobytes)k", url.path])
        else { throw CocoaError(.fileWriteNoPermission) }
    }

    deinit {
        _ = Self.run("/bin/umount", [url.path])
        try? FileManager.default.removeItem(at: url)
    }

    private static func run(_ command: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit(within: 60, command)
        return process.terminationStatus == 0
    }
}
