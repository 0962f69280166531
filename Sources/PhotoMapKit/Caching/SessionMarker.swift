// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization

/// A file under `flock` that says whether its process has stores not yet in the journal ("1") or
/// not ("0"): when its process dies, the lock goes with it, and the next process knows whether to
/// reconcile. A process keeps one for its life and rewrites its byte.
final class SessionMarker: Sendable {
    private let path: String
    private let descriptor: Int32
    private let removed = Atomic<Bool>(false)

    init?(folder: String) {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        path = "\(folder)/\(getpid())-\(UUID().uuidString)"
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        // A marker it cannot make or lock is no marker (deinit then closes what was opened).
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            unlink(path)
            return nil
        }
    }

    /// Says whether stores are pending. A failed write leaves the byte as it was, or the file empty,
    /// which reads as pending: the next process reconciles once more than it needed to, never less.
    func say(pending: Bool) {
        var byte = pending ? UInt8(ascii: "1") : UInt8(ascii: "0")
        _ = pwrite(descriptor, &byte, 1, 0)
    }

    /// Removes the marker: nothing it stood for is pending.
    func remove() {
        guard !removed.exchange(true, ordering: .relaxed) else { return }
        unlink(path)
        close(descriptor)
    }

    /// A marker released without `remove()` stays on disk, unlocked, saying what it said last.
    deinit {
        if !removed.load(ordering: .relaxed) && descriptor >= 0 { close(descriptor) }
    }

    /// Removes the markers of processes that died; returns how many said stores were pending (an empty
    /// or unreadable one counts: its process may have died before it could write).
    static func removeAbandoned(in folder: String) -> Int {
        var pending = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = "\(folder)/\(name)"
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            // A live process holds its marker's lock; getting it means the owner is gone.
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                var byte: UInt8 = 0
                if pread(descriptor, &byte, 1, 0) != 1 || byte != UInt8(ascii: "0") { pending += 1 }
                unlink(path)
            }
            close(descriptor)
        }
        return pending
    }
}
