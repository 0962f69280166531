// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Paces calls to Flickr's REST API under Flickr's limit of 3,600 calls an hour per API key, for every
/// photomap process using the key: a token bucket in a `CallBudgetStore` shared by them all.
///
/// The bucket holds a minute's calls and refills so that no hour can see more than the limit: a burst
/// of `capacity` calls, then one every 3,600 / (limit − capacity) seconds. A caller that finds it empty
/// reserves the next token and sleeps until it is due (outside the lock), so callers in several
/// processes line up rather than race.
public struct FlickrRateLimiter: Sendable {
    /// Flickr's limit: "stay under 3,600 queries per hour per key".
    public static let flickrCallsPerHour = 3_600
    /// A wait longer than this is announced (once per run): the user sees why photomap is idle.
    public static let noticeableWait: TimeInterval = 2

    /// Calls allowed in any hour.
    public let callsPerHour: Int
    /// Where the bucket is kept.
    public let budget: any CallBudgetStore
    /// Tokens the bucket holds when full.
    let capacity: Double
    /// Tokens added each second.
    let refillPerSecond: Double
    private let sleep: @Sendable (TimeInterval) -> Void
    private let notice: @Sendable (TimeInterval) -> Void

    /// Whether a wait was announced in this process.
    private static let announced = Locked(false)

    /// A limiter keeping its bucket in `budget`; `notice` hears of the first long wait.
    public init(
        budget: any CallBudgetStore, callsPerHour: Int = FlickrRateLimiter.flickrCallsPerHour,
        sleep: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
        notice: @escaping @Sendable (TimeInterval) -> Void = { _ in }
    ) {
        self.callsPerHour = max(callsPerHour, 1)
        self.budget = budget
        capacity = max(Double(self.callsPerHour) / 60, 1)
        refillPerSecond = max(Double(self.callsPerHour) - capacity, 1) / 3_600
        self.sleep = sleep
        self.notice = notice
    }

    /// Takes one call's token, sleeping until it is due.
    public func acquire() throws {
        let wait = try reserve()
        guard wait > 0 else { return }
        if wait >= Self.noticeableWait,
            Self.announced.withLock({ done in
                defer { done = true }
                return !done
            })
        {
            notice(wait)
        }
        sleep(wait)
    }

    /// How long `calls` more calls would wait beyond what the bucket holds now (0 when it holds enough).
    public func estimatedWait(forCalls calls: Int) -> TimeInterval {
        let tokens = (try? withBucket(taking: 0)) ?? capacity
        return max(Double(calls) - tokens, 0) / refillPerSecond
    }

    /// How many calls could go at once now, without waiting (the bucket's whole tokens).
    public func callsAvailableNow() throws -> Double {
        max(try withBucket(taking: 0), 0).rounded(.down)
    }

    /// Takes a token (the count may go below zero: a reservation) and returns how long to wait for it.
    func reserve() throws -> TimeInterval {
        let left = try withBucket(taking: 1)
        return left >= 0 ? 0 : -left / refillPerSecond
    }

    /// Takes `tokens` from the bucket, refilled to now; what is left. The store's error is its own: a
    /// file's says which file, a database's that it is away (worth trying again).
    private func withBucket(taking tokens: Double) throws -> Double {
        try budget.take(tokens, capacity: capacity, refillPerSecond: refillPerSecond)
    }
}
