// SPDX-License-Identifier: Apache-2.0
/// What can go wrong with geofences (`photomap fences`).
public enum GeofenceError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A fence of this name exists already.
    case duplicate(name: String)
    /// No fence has this name.
    case unknown(name: String)

    /// What failed (the command line adds what to do about it).
    public var description: String {
        switch self {
        case let .duplicate(name): return "a fence named '\(name)' exists already"
        case let .unknown(name): return "there is no fence named '\(name)'"
        }
    }
}
