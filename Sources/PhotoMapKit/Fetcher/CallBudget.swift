// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Where the token bucket pacing one API key's calls is kept, shared by every process using the key:
/// a file of the cache folder (`FileCallBudget`) or a row in PostgreSQL (`PostgresCallBudget`) for
/// processes on several machines. Either way each change is one atomic step, and the key is named
/// only by a salted hash (`keyHash`), never stored.
public protocol CallBudgetStore: Sendable, CustomStringConvertible {
    /// Refills the bucket to now (`refillPerSecond`, at most `capacity`; a new bucket starts full),
    /// then takes `tokens` from it, and returns what is left: below zero is a reservation of tokens
    /// still to come. Its errors say what failed, in the store's own terms (`FlickrError.rateStateUnavailable`
    /// for a file).
    func take(_ tokens: Double, capacity: Double, refillPerSecond: Double) throws -> Double
}

extension CallBudgetStore {
    /// The name an API key's bucket is kept under.
    public static func keyHash(_ apiKey: String) -> String {
        "flickr-" + SHA256.hex("photomap rate bucket for Flickr API key " + apiKey).prefix(24)
    }
}

/// The bucket in `{cache}/rate/`, in a file named by the key's hash, read and written under an
/// exclusive `flock(2)`.
public struct FileCallBudget: CallBudgetStore {
    /// The bucket's file.
    public let file: URL
    private let clock: @Sendable () -> Date

    /// The bucket of `apiKey` in the cache folder `cacheDirectory`, its time from `clock`.
    public init(cacheDirectory: URL, apiKey: String, clock: @escaping @Sendable () -> Date = { Date() }) {
        file = cacheDirectory.appendingPathComponent("rate").appendingPathComponent(Self.keyHash(apiKey))
        self.clock = clock
    }

    public func take(_ tokens: Double, capacity: Double, refillPerSecond: Double) throws -> Double {
        do {
            return try update(taking: tokens, capacity: capacity, refillPerSecond: refillPerSecond)
        } catch {
            throw FlickrError.rateStateUnavailable(path: file.path, reason: LockedFile.reason(error))
        }
    }

    private func update(taking tokens: Double, capacity: Double, refillPerSecond: Double) throws -> Double {
        try LockedFile.update(file.path) { contents in
            let now = clock().timeIntervalSince1970
            let fields = contents.map { String(decoding: $0.prefix(128), as: UTF8.self) }?
                .split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
            // No file yet: a full bucket. An unreadable one (a damaged disk): an empty one, the safe side.
            let (stored, updated) = fields.map { $0.count == 2 ? ($0[0], $0[1]) : (0, now) } ?? (capacity, now)
            // A clock set back refills nothing, and the refill counts from now.
            let left = min(capacity, stored + max(now - updated, 0) * refillPerSecond) - tokens
            return (Data("\(left) \(max(now, updated))\n".utf8), left)
        }
    }

    public var description: String { file.path }
}
