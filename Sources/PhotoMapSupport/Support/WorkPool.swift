// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs jobs on at most `width` threads at once, in the order given: CPU work (checking, decoding
/// and storing images) kept off the network's event loop, and the server's slow work (listings,
/// lookups), which blocks on the network and the disk. By default as wide as the machine has cores.
/// A bounded pool without semaphores: a job that finds the pool full waits in the queue, and each
/// running drain takes the next job itself.
///
/// The drains run on threads of the pool's own, not on Dispatch's global queue: on Linux libdispatch
/// adds about one thread a second while its threads are blocked, so blocking jobs there (or jobs that
/// wait for work queued there, as a listing waits for its pages' decoding) would start one a second.
package final class WorkPool: Sendable {
    private struct Jobs: Sendable {
        var waiting = FIFO<@Sendable () -> Void>()
        var running = 0
    }

    private let width: Int
    private let jobs = Locked(Jobs())

    package init(width: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.width = max(width, 1)
    }

    /// Queues `job`; it runs on one of the pool's threads.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        submit(job, maximumWaiting: .max)
    }

    /// Queues `job` unless `maximumWaiting` jobs wait already; false when refused (it will not run).
    @discardableResult
    package func submit(_ job: @escaping @Sendable () -> Void, maximumWaiting: Int) -> Bool {
        let (accepted, startsDrain) = jobs.withLock { jobs in
            guard jobs.running < width || jobs.waiting.count < maximumWaiting else { return (false, false) }
            jobs.waiting.append(job)
            guard jobs.running < width else { return (true, false) }
            jobs.running += 1
            return (true, true)
        }
        if startsDrain { Thread.detachNewThread { self.drain() } }
        return accepted
    }

    private func drain() {
        while let job = next() { job() }
    }

    private func next() -> (@Sendable () -> Void)? {
        jobs.withLock { jobs in
            guard let job = jobs.waiting.popFirst() else {
                jobs.running -= 1
                return nil
            }
            return job
        }
    }
}
