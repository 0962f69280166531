// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What can go wrong between photomap and Flickr (or the embedded catalog).
public enum FlickrError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Flickr answered `"stat":"fail"` with this code and message.
    case apiFailure(method: String, code: Int?, message: String)
    /// The answer is not the JSON Flickr documents.
    case malformedAnswer(method: String, detail: String)
    /// The Flickr source needs an API key and none was given.
    case missingAPIKey
    /// `--offline` and the answer is not in the cache.
    case notCached(method: String)
    /// `--offline` and the answer kept in the cache does not read back (a damaged file or row): named by
    /// its cache key (the hash its file or row is named by; no secret is in it) and where it is kept.
    case cachedAnswerDamaged(method: String, key: String, store: String)
    /// The embedded catalog has no such place.
    case unknownPlace(String)
    /// No imported photo is in such a place (`--source local`).
    case unknownLocalPlace(String)
    /// The embedded catalog could not be read.
    case catalogUnreadable(path: String, reason: String)
    /// The count of calls made with the key (to stay under Flickr's limit) cannot be kept in the cache folder.
    case rateStateUnavailable(path: String, reason: String)

    /// What failed, with what (the command line adds what to do about it).
    public var description: String {
        switch self {
        case let .apiFailure(method, code, message):
            let codeText = code.map { " (code \($0))" } ?? ""
            if code == 100 { return "Flickr rejected the API key\(codeText): \(message)" }
            return "Flickr refused \(method)\(codeText): \(message)"
        case let .malformedAnswer(method, detail):
            return "Flickr's answer to \(method) is not valid: \(detail)"
        case .missingAPIKey:
            return "the Flickr source needs an API key"
        case let .notCached(method):
            return "--offline: no cached answer for \(method)"
        case let .cachedAnswerDamaged(method, key, store):
            return
                "--offline: the cached answer for \(method) is damaged and cannot be read (cache key \(key) in \(store))"
        case let .unknownPlace(id):
            return "no place with id \"\(id)\" in the embedded catalog"
        case let .unknownLocalPlace(id):
            return "no place with id \"\(id)\" among the imported photos (--source local)"
        case let .catalogUnreadable(path, reason):
            return "cannot read the embedded catalog at \(path): \(reason)"
        case let .rateStateUnavailable(path, reason):
            return "cannot keep count of Flickr API calls in \(path): \(reason)"
        }
    }

    /// Whether the place asked for does not exist: the embedded catalog has no such place, or
    /// flickr.places.getInfo says so (code 2 "Not a valid Places ID", 3 "Place not found").
    public var isUnknownPlace: Bool {
        switch self {
        case .unknownPlace, .unknownLocalPlace: return true
        case let .apiFailure(method, code?, _): return method == "flickr.places.getInfo" && (code == 2 || code == 3)
        default: return false
        }
    }
}
