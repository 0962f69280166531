// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import PhotoMapTestSupport
import Testing

@testable import PhotoMapKit

@Suite("EntryLocks: one lock per cache entry, shared by processes")
struct EntryLocksTests {
    /// Two opens of one lock file: two open file descriptions, which conflict as two processes do.
    private let path = FileManager.default.temporaryDirectory.appendingPathComponent("locks-\(UUID().uuidString)").path
    private let first = String(repeating: "a", count: 64)
    private let second = String(repeating: "b", count: 64)

    private func locks() throws -> EntryLocks {
        try EntryLocks(path: path) { warning in Issue.record("unexpected warning: \(warning)") }
    }

    @Test("an entry held by one opener is held elsewhere for another; other entries are free")
    func exclusion() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let one = try locks()
        let other = try locks()
        #expect(try one.tryLock(first) == .acquired)
        #expect(try other.tryLock(first) == .heldElsewhere)
        #expect(try other.tryLock(second) == .acquired)
        #expect(try one.tryLock(second) == .heldElsewhere)
        one.unlock(first)
        #expect(try other.tryLock(first) == .acquired)
        #expect(try one.tryLock(first) == .heldElsewhere)
        other.unlock(first)
        other.unlock(second)
        #expect(try one.tryLock(second) == .acquired)
    }

    @Test("a lock belongs to its opener, not its thread: another thread sees it held and may release it")
    func acrossThreads() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let one = try locks()
        let other = try locks()
        #expect(try one.tryLock(first) == .acquired)
        let seen = Locked<[EntryLocks.Attempt]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            seen.withLock { $0.append((try? other.tryLock(first)) ?? .unsupported) }
            one.unlock(first)
            seen.withLock { $0.append((try? other.tryLock(first)) ?? .unsupported) }
            done.signal()
        }
        done.wait()
        #expect(seen.withLock { $0 } == [.heldElsewhere, .acquired])
        #expect(try one.tryLock(first) == .heldElsewhere, "the other opener holds it now")
    }

    @Test("openers on many threads contending for one entry never hold it two at once")
    func contention() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let openers = try (0..<4).map { _ in try locks() }
        let holders = Locked((now: 0, most: 0, turns: 0))
        let done = DispatchGroup()
        for opener in openers {
            done.enter()
            Thread.detachNewThread {
                var turns = 0
                while turns < 50 {
                    guard (try? opener.tryLock(first)) == .acquired else {
                        sched_yield()
                        continue
                    }
                    holders.withLock {
                        $0.now += 1
                        $0.most = max($0.most, $0.now)
                    }
                    sched_yield()  // held a while, for another thread to try
                    holders.withLock {
                        $0.now -= 1
                        $0.turns += 1
                    }
                    opener.unlock(first)
                    turns += 1
                }
                done.leave()
            }
        }
        done.wait()
        #expect(holders.withLock { $0.most } == 1)
        #expect(holders.withLock { $0.turns } == 200)
    }

    @Test("closing the locks releases what they held")
    func releasedOnClose() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let other = try locks()
        do {
            let one = try locks()
            #expect(try one.tryLock(first) == .acquired)
            #expect(try other.tryLock(first) == .heldElsewhere)
        }
        #expect(try other.tryLock(first) == .acquired)
    }

    @Test("another process holds only its entry, and a process killed with -9 holds nothing")
    func killedProcess() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The entry's byte, as EntryLocks places it: the first 60 bits of its hash.
        let offset = try #require(Int(first.prefix(15), radix: 16))
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", LoopbackServer.repositoryRoot.appendingPathComponent("Tests/Support/hold_entry_lock.py").path,
            path, String(offset),
        ]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        defer {
            // Stops it however the test ends (it exits when its stdin closes).
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit(within: 60, "the lock holder")
        }
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        try #require(String(decoding: line, as: UTF8.self) == "LOCKED")

        let locks = try locks()
        #expect(try locks.tryLock(first) == .heldElsewhere)
        #expect(try locks.tryLock(second) == .acquired, "only the entry the other process holds is held")
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(holder.terminationReason == .uncaughtSignal)
        #expect(try locks.tryLock(first) == .acquired)
    }

    @Test("a lock file that cannot be made is a write failure naming it")
    func unopenable() {
        let missing = path + "/no-such-folder/locks"
        #expect(throws: ThumbnailError.writeFailed(path: missing, reason: String(cString: strerror(ENOENT)))) {
            _ = try EntryLocks(path: missing) { _ in }
        }
    }
}
