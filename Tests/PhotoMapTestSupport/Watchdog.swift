// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import Testing

/// Kills a child process still running after a limit, so that a hang fails its test instead of holding CI
/// to its 90 minutes: made before reading the child's output to its end or waiting for its exit, finished
/// after.
public final class Watchdog: Sendable {
    private let limit: TimeInterval
    private let what: String
    private let ended = DispatchSemaphore(value: 0)
    private let fired = Locked(false)

    /// Watches process `pid`, which `what` names in the issue recorded if it is killed.
    public init(_ pid: pid_t, limit: TimeInterval, _ what: String) {
        self.limit = limit
        self.what = what
        let (ended, fired) = (ended, fired)
        Thread {
            guard ended.wait(timeout: .now() + limit) == .timedOut else { return }
            fired.withLock { $0 = true }
            kill(pid, SIGKILL)
        }.start()
    }

    /// Stops watching, once the process has exited; records an issue when it had to be killed.
    public func finish() {
        ended.signal()
        if fired.withLock({ $0 }) { Issue.record("\(what) ran over \(limit) s: killed") }
    }
}

extension Process {
    /// `waitUntilExit`, the process killed (and an issue recorded, naming it by `what`) once `limit` passes.
    public func waitUntilExit(within limit: TimeInterval, _ what: String) {
        let watchdog = Watchdog(processIdentifier, limit: limit, what)
        waitUntilExit()
        watchdog.finish()
    }
}
