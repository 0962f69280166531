import Foundation

/// Paces calls to Flickr's REST API under Flickr's limit of 3,600 calls an hour per API key, for every
/// photomap process using the key: a token bucket kept in the cache folder, in a file named by a hash
/// of the key (never the key), read and written under an exclusive `flock(2)`.
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
    /// The bucket's file.
    public let file: URL
    /// Tokens the bucket holds when full.
    let capacity: Double
    /// Tokens added each second.
    let refillPerSecond: Double
    private let clock: @Sendable () -> Date
    private let sleep: @Sendable (TimeInterval) -> Void
    private let notice: @Sendable (TimeInterval) -> Void

    /// Whether a wait was announced in this process.
    private static let announced = Locked(false)

    /// A limiter for `apiKey` keeping its bucket under `{cacheDirectory}/rate/`; `notice` hears of the
    /// first long wait.
    public init(cacheDirectory: URL, apiKey: String, callsPerHour: Int = FlickrRateLimiter.flickrCallsPerHour,
                clock: @escaping @Sendable () -> Date = { Date() },
                sleep: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
                notice: @escaping @Sendable (TimeInterval) -> Void = { _ in }) {
        self.callsPerHour = max(callsPerHour, 1)
        // The key is a secret: the file is named by a hash of it, salted with what it is for.
        file = cacheDirectory.appendingPathComponent("rate")
            .appendingPathComponent("flickr-"
                                    + SHA256.hex("photomap rate bucket for Flickr API key " + apiKey).prefix(24))
        capacity = max(Double(self.callsPerHour) / 60, 1)
        refillPerSecond = max(Double(self.callsPerHour) - capacity, 1) / 3_600
        self.clock = clock
        self.sleep = sleep
        self.notice = notice
    }

    /// Takes one call's token, sleeping until it is due.
    public func acquire() throws(FlickrError) {
        let wait = try reserve()
        guard wait > 0 else { return }
        if wait >= Self.noticeableWait, Self.announced.withLock({ done in defer { done = true }; return !done }) {
            notice(wait)
        }
        sleep(wait)
    }

    /// How long `calls` more calls would wait beyond what the bucket holds now (0 when it holds enough).
    public func estimatedWait(forCalls calls: Int) -> TimeInterval {
        let tokens = (try? withBucket { $0 }) ?? capacity
        return max(Double(calls) - tokens, 0) / refillPerSecond
    }

    /// Takes a token (the count may go below zero: a reservation) and returns how long to wait for it.
    func reserve() throws(FlickrError) -> TimeInterval {
        let left = try withBucket { $0 - 1 }
        return left >= 0 ? 0 : -left / refillPerSecond
    }

    /// Runs `change` on the bucket's tokens, refilled to now, under the lock; stores and returns the result.
    private func withBucket(_ change: (Double) -> Double) throws(FlickrError) -> Double {
        do {
            return try LockedFile.update(file.path) { contents in
                let now = clock().timeIntervalSince1970
                let fields = contents.map { String(decoding: $0.prefix(128), as: UTF8.self) }?
                    .split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
                // No file yet: a full bucket. An unreadable one (a damaged disk): an empty one, the safe side.
                let (stored, updated) = fields.map { $0.count == 2 ? ($0[0], $0[1]) : (0, now) } ?? (capacity, now)
                // A clock set back refills nothing, and the refill counts from now.
                let tokens = change(min(capacity, stored + max(now - updated, 0) * refillPerSecond))
                return (Data("\(tokens) \(max(now, updated))\n".utf8), tokens)
            }
        } catch {
            throw .rateStateUnavailable(path: file.path, reason: LockedFile.reason(error))
        }
    }
}
