// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import Testing

@testable import PhotoMapKit

@Suite("ByteBudget: a semaphore of bytes")
struct ByteBudgetTests {
    @Test("more than the capacity is refused at once, taking nothing; what is given back can be taken again")
    func capacity() {
        let budget = ByteBudget(capacity: 100)
        #expect(!budget.reserve(101))
        #expect(budget.free == 100)
        #expect(budget.reserve(60))
        #expect(!budget.reserveNow(41))
        #expect(budget.reserveNow(40))
        #expect(budget.free == 0)
        budget.release(60)
        budget.release(40)
        #expect(budget.free == 100 && budget.reserve(100))
    }

    @Test("a waiter is served once enough is given back, and reserveNow takes nothing past it")
    func waiting() {
        let budget = ByteBudget(capacity: 100)
        #expect(budget.reserve(70))
        let served = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = budget.reserve(50)
            served.signal()
        }
        while budget.waiting == 0 { Thread.sleep(forTimeInterval: 0.001) }
        #expect(!budget.reserveNow(10), "30 are free, but one waits for 50")
        budget.release(70)
        served.wait()
        #expect(budget.waiting == 0 && budget.free == 50)
    }

    @Test("threads taking and giving back at random never hold more than the capacity together, and all finish")
    func manyThreads() {
        let budget = ByteBudget(capacity: 1_000)
        let held = Locked((now: 0, most: 0))
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            let bytes = (index * 7919) % 600 + 1
            // As a reader does: the bytes, then more now or everything given back and the whole waited for.
            guard budget.reserve(bytes) else { return }
            var holding = bytes
            let more = (index * 104_729) % 500
            if !budget.reserveNow(more) {
                budget.release(holding)
                holding = bytes + more
                guard budget.reserve(holding) else { return }
            } else {
                holding += more
            }
            held.withLock {
                $0.now += holding
                $0.most = max($0.most, $0.now)
            }
            held.withLock { $0.now -= holding }
            budget.release(holding)
        }
        #expect(held.withLock { $0.most } <= 1_000)
        #expect(budget.free == 1_000)
    }
}
