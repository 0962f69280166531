// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import Testing

@testable import PhotoMapKit

@Suite("Pending: a value made on another thread")
struct PendingTests {
    private struct Broken: Error, Equatable {}

    /// Runs `body`, which blocks, on a thread of its own rather than on the tests' few concurrency
    /// threads (on Linux, Dispatch's global queue's, where Pending makes its value).
    private func onThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result(catching: body)) }
        }
    }

    @Test("making starts at once, before anyone waits, and every wait gives the one value")
    func value() async throws {
        let started = DispatchSemaphore(value: 0)
        let makes = Locked(0)
        let pending = Pending { () -> [Int] in
            makes.withLock { $0 += 1 }
            started.signal()
            return [1, 2, 3]
        }
        let values = try await onThread {
            // Returns only if making has begun without a call to wait().
            started.wait()
            return [try pending.wait(), try pending.wait()]
        }
        #expect(values == [[1, 2, 3], [1, 2, 3]])
        #expect(makes.withLock { $0 } == 1)
    }

    @Test("wait throws what making threw, each time")
    func failure() async {
        let pending = Pending<Int> { throw Broken() }
        await #expect(throws: Broken()) { try await onThread { try pending.wait() } }
        await #expect(throws: Broken()) { try await onThread { try pending.wait() } }
    }

    @Test("a wait blocks until the value is made, from any number of threads")
    func waiters() async throws {
        let release = DispatchSemaphore(value: 0)
        let pending = Pending { () -> String in
            release.wait()
            return "made"
        }
        let results = Locked<[String]>([])
        let (early, before) = try await onThread {
            let done = DispatchGroup()
            for _ in 0..<4 {
                done.enter()
                Thread.detachNewThread {
                    let result = (try? pending.wait()) ?? "failed"
                    results.withLock { $0.append(result) }
                    done.leave()
                }
            }
            let early = done.wait(timeout: .now() + .milliseconds(5)) == .success
            let before = results.withLock { $0 }
            release.signal()
            done.wait()
            return (early, before)
        }
        #expect(!early, "no wait returns before the value is made")
        #expect(before.isEmpty)
        #expect(results.withLock { $0 } == Array(repeating: "made", count: 4))
    }
}
