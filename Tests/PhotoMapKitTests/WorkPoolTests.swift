// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import Testing

@testable import PhotoMapKit

@Suite("WorkPool: jobs on a bounded number of threads")
struct WorkPoolTests {
    /// Polls `condition` every millisecond, for at most five seconds; whether it came true.
    @discardableResult
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }

    @Test("never more than its width run at once, however many are queued, and every job runs")
    func width() {
        let pool = WorkPool(width: 3)
        let running = Locked((now: 0, most: 0, finished: 0))
        let gate = DispatchSemaphore(value: 0)
        for _ in 0..<30 {
            pool.submit {
                running.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                gate.wait()
                gate.signal()
                running.withLock {
                    $0.now -= 1
                    $0.finished += 1
                }
            }
        }
        #expect(waitUntil { running.withLock { $0.now } == 3 })
        // A few milliseconds for a fourth to start if the pool let one.
        Thread.sleep(forTimeInterval: 0.005)
        #expect(running.withLock { $0.now } == 3)
        gate.signal()
        #expect(waitUntil { running.withLock { $0.finished } == 30 })
        #expect(running.withLock { $0.most } == 3)
    }

    @Test("one wide, jobs run in the order given")
    func order() {
        let pool = WorkPool(width: 1)
        let order = Locked<[Int]>([])
        for index in 0..<100 { pool.submit { order.withLock { $0.append(index) } } }
        #expect(waitUntil { order.withLock { $0.count } == 100 })
        #expect(order.withLock { $0 } == Array(0..<100))
    }

    @Test("jobs queued from many threads at once each run exactly once")
    func exactlyOnce() {
        let pool = WorkPool(width: 4)
        let submitters = 8, each = 250
        let runs = Locked([Int](repeating: 0, count: submitters * each))
        let submitted = DispatchGroup()
        for submitter in 0..<submitters {
            submitted.enter()
            Thread.detachNewThread {
                for index in 0..<each {
                    pool.submit { runs.withLock { $0[submitter * each + index] += 1 } }
                }
                submitted.leave()
            }
        }
        submitted.wait()
        #expect(waitUntil { runs.withLock { $0.reduce(0, +) } == submitters * each })
        // A few milliseconds for a job run twice to show.
        Thread.sleep(forTimeInterval: 0.005)
        #expect(runs.withLock { $0.allSatisfy { $0 == 1 } })
    }

    @Test("a job may queue more jobs on its own pool: they run after it, on the pool's threads")
    func jobsQueueJobs() {
        let pool = WorkPool(width: 1)
        let order = Locked<[String]>([])
        pool.submit {
            pool.submit { order.withLock { $0.append("second") } }
            order.withLock { $0.append("first") }
        }
        #expect(waitUntil { order.withLock { $0.count } == 2 })
        #expect(order.withLock { $0 } == ["first", "second"])
    }

    @Test("a job is refused once maximumWaiting wait, and a refused job never runs")
    func maximumWaiting() {
        let pool = WorkPool(width: 0)  // taken as one
        let ran = Locked<[Int]>([])
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let blocking: @Sendable () -> Void = {
            started.signal()
            gate.wait()
            ran.withLock { $0.append(0) }
        }
        #expect(pool.submit(blocking, maximumWaiting: 0), "a pool with a free thread takes a job whatever waits")
        started.wait()
        let accepted = (1...3).map { index in
            pool.submit({ ran.withLock { $0.append(index) } }, maximumWaiting: 2)
        }
        #expect(accepted == [true, true, false])
        gate.signal()
        #expect(waitUntil { ran.withLock { $0.count } == 3 })
        // Jobs run in order: had the refused job been queued, it would run before a later one.
        pool.submit { ran.withLock { $0.append(4) } }
        #expect(waitUntil { ran.withLock { $0.count } == 4 })
        #expect(ran.withLock { $0 } == [0, 1, 2, 4])
    }
}
