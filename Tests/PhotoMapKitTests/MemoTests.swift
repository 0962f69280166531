// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import Testing

@testable import PhotoMapKit

@Suite("Memo: a value worked out once and shared")
struct MemoTests {
    private struct Refused: Error, Equatable {}

    @Test("callers arriving while the value is loaded wait for that one load")
    func concurrentCallers() {
        let memo = Memo<Int>()
        let callers = 16
        let loads = Locked(0)
        let arrived = Locked(0)
        let results = Locked<[Int]>([])
        let done = DispatchGroup()
        for _ in 0..<callers {
            done.enter()
            Thread.detachNewThread {
                arrived.withLock { $0 += 1 }
                let value = memo.value { () -> Int in
                    let load = loads.withLock { count in
                        count += 1
                        return count
                    }
                    // The loader holds on until every caller has come, so the others find it loading.
                    let deadline = Date().addingTimeInterval(5)
                    while arrived.withLock({ $0 }) < callers, Date() < deadline {
                        Thread.sleep(forTimeInterval: 0.001)
                    }
                    return 41 + load
                }
                results.withLock { $0.append(value) }
                done.leave()
            }
        }
        done.wait()
        #expect(loads.withLock { $0 } == 1)
        #expect(results.withLock { $0 } == Array(repeating: 42, count: callers))
    }

    @Test("a load that throws keeps nothing: the caller gets the error, the next caller loads again")
    func failedLoad() throws {
        let memo = Memo<String>()
        #expect(throws: Refused()) { try memo.value { () throws(Refused) -> String in throw Refused() } }
        #expect(memo.value { "second" } == "second")
        #expect(memo.value { "third" } == "second", "a loaded value is kept")
    }

    @Test("a caller waiting on a load that throws loads in its turn")
    func waiterAfterFailure() {
        let memo = Memo<String>()
        let loading = DispatchSemaphore(value: 0)
        let fail = DispatchSemaphore(value: 0)
        let failed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? memo.value { () throws(Refused) -> String in
                loading.signal()
                fail.wait()
                throw Refused()
            }
            failed.signal()
        }
        loading.wait()
        let waiter = Locked<String?>(nil)
        let waited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = memo.value { "waiter's" }
            waiter.withLock { $0 = value }
            waited.signal()
        }
        // A few milliseconds for the waiter to find the value loading.
        Thread.sleep(forTimeInterval: 0.005)
        fail.signal()
        failed.wait()
        waited.wait()
        #expect(waiter.withLock { $0 } == "waiter's")
    }

    @Test("after a failed load, among many waiting callers one loads again and the rest share its value")
    func manyAfterFailure() {
        let memo = Memo<Int>()
        let callers = 8
        let loads = Locked(0)
        let arrived = Locked(0)
        let outcomes = Locked<[Result<Int, Refused>]>([])
        let done = DispatchGroup()
        for _ in 0..<callers {
            done.enter()
            Thread.detachNewThread {
                arrived.withLock { $0 += 1 }
                let outcome = Result { () throws(Refused) -> Int in
                    try memo.value { () throws(Refused) -> Int in
                        let load = loads.withLock { count in
                            count += 1
                            return count
                        }
                        guard load > 1 else {
                            // The first load holds on until every caller has come, then fails.
                            let deadline = Date().addingTimeInterval(5)
                            while arrived.withLock({ $0 }) < callers, Date() < deadline {
                                Thread.sleep(forTimeInterval: 0.001)
                            }
                            throw Refused()
                        }
                        return 7
                    }
                }
                outcomes.withLock { $0.append(outcome) }
                done.leave()
            }
        }
        done.wait()
        #expect(loads.withLock { $0 } == 2)
        let all = outcomes.withLock { $0 }
        #expect(all.filter { (try? $0.get()) == nil }.count == 1, "only the failed load's caller gets its error")
        #expect(all.compactMap { try? $0.get() } == Array(repeating: 7, count: callers - 1))
    }

    @Test("forget makes the next caller load again, but keeps a value being loaded")
    func forget() {
        let memo = Memo<Int>()
        #expect(memo.value { 1 } == 1)
        memo.forget()
        #expect(memo.value { 2 } == 2)

        let loading = DispatchSemaphore(value: 0)
        let finish = DispatchSemaphore(value: 0)
        let loaded = DispatchSemaphore(value: 0)
        memo.forget()
        Thread.detachNewThread {
            _ = memo.value { () -> Int in
                loading.signal()
                finish.wait()
                return 3
            }
            loaded.signal()
        }
        loading.wait()
        memo.forget()
        finish.signal()
        loaded.wait()
        #expect(memo.value { 4 } == 3)
    }
}
