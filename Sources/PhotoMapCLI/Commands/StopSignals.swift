// SPDX-License-Identifier: Apache-2.0
import Foundation

/// SIGINT and SIGTERM, caught from the moment `StopSignals()` returns until `wait()` has seen one.
///
/// A handler installed with `sigaction` catches a signal from then on. Dispatch's signal sources did not:
/// on Linux they are registered later, on Dispatch's own thread, and the `SIG_IGN` they need first
/// dropped a SIGTERM sent before (pending, when blocked) or in between: `serve` then never stopped (5 ms
/// after "serving", 1 start in 40 here; started from a test's thread, 5 in 5; a test's `stop()` waited for
/// it until CI's time ran out).
struct StopSignals: ~Copyable {
    /// Posted by the handler (sem_post is async-signal-safe); made before the handler can run.
    nonisolated(unsafe) private static let caught: UnsafeMutablePointer<sem_t> = {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }()

    private static let numbers = [SIGINT, SIGTERM]

    init() {
        _ = Self.caught
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in sem_post(StopSignals.caught) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        var numbers = sigset_t()
        sigemptyset(&numbers)
        for number in Self.numbers {
            sigaction(number, &action, nil)
            sigaddset(&numbers, number)
        }
        // A process started from a thread that blocks them (a Dispatch thread blocks nearly all) starts with
        // them blocked in every thread: this one takes them, one pending since the start included.
        pthread_sigmask(SIG_UNBLOCK, &numbers, nil)
    }

    /// Waits for a signal caught since `init` (one may already have come), then gives both back their
    /// default: a second Ctrl-C ends a stop that takes too long.
    consuming func wait() {
        while sem_wait(Self.caught) != 0 && errno == EINTR {}
        for number in Self.numbers { signal(number, SIG_DFL) }
    }
}
