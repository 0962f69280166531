// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Failed sign-ins slowed per account and per client address: at most `allowed` failures within a
/// minute each; the next one starts a wait, which doubles at each new run of failures (1, 2, 4 …
/// minutes, at most a day). A sign-in that succeeds clears its account's record. The clock is given, so
/// tests move time instead of sleeping. Kept in this process: each server of a fleet counts its own.
public final class SignInThrottle: Sendable {
    /// What a sign-in may do now.
    public enum Decision: Equatable, Sendable {
        case allowed
        /// Refused: try again after this many seconds (`Retry-After`).
        case wait(seconds: Int)
    }

    /// Failures allowed within `window` before a wait.
    public static let allowed = 10
    /// The window failures are counted in.
    public static let window: TimeInterval = 60
    /// The longest wait.
    static let longestWait: TimeInterval = 24 * 3600
    /// Keys remembered at most; past it, those with nothing to hold are forgotten first, then the oldest.
    static let capacity = 10_000

    private struct Record {
        var failures: [Date] = []
        var blockedUntil: Date?
        /// Waits so far: the next lasts `window` × 2^waits.
        var waits = 0
        var lastSeen = Date.distantPast
    }

    private let clock: @Sendable () -> Date
    private let records = Locked<[String: Record]>([:])

    /// A throttle reading `clock` (the system's by default).
    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    /// Whether a sign-in as `account` from `address` may be tried now.
    public func check(account: String, address: String) -> Decision {
        let now = clock()
        let waits = records.withLock { records in
            Self.keys(account: account, address: address).compactMap { key in
                records[key]?.blockedUntil.map { $0.timeIntervalSince(now) }
            }
        }
        guard let longest = waits.max(), longest > 0 else { return .allowed }
        return .wait(seconds: Int(longest.rounded(.up)))
    }

    /// Records a failed sign-in as `account` from `address`.
    public func failed(account: String, address: String) {
        let now = clock()
        records.withLock { records in
            for key in Self.keys(account: account, address: address) {
                var record = records[key] ?? Record()
                record.lastSeen = now
                record.failures = record.failures.filter { now.timeIntervalSince($0) < Self.window } + [now]
                if record.failures.count >= Self.allowed {
                    let wait = min(Self.window * pow(2, Double(record.waits)), Self.longestWait)
                    record.blockedUntil = now.addingTimeInterval(wait)
                    record.waits += 1
                    record.failures = []
                }
                records[key] = record
            }
            if records.count > Self.capacity { Self.forget(from: &records, now: now) }
        }
    }

    /// Clears `account`'s record after a sign-in that succeeded (its address's stays: one good password
    /// must not reset the count of guesses at others).
    public func succeeded(account: String) {
        _ = records.withLock { $0.removeValue(forKey: "account " + account) }
    }

    private static func keys(account: String, address: String) -> [String] {
        ["account " + account, "address " + address]
    }

    /// Drops records that hold nothing now, then the least recently seen, down to 90% of `capacity`.
    private static func forget(from records: inout [String: Record], now: Date) {
        records = records.filter { _, record in
            (record.blockedUntil.map { $0 > now } ?? false)
                || record.failures.contains { now.timeIntervalSince($0) < window }
        }
        guard records.count > capacity else { return }
        let kept = records.sorted { $0.value.lastSeen > $1.value.lastSeen }.prefix(capacity * 9 / 10)
        records = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }
}
