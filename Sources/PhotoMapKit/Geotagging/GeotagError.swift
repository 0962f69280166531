// SPDX-License-Identifier: Apache-2.0
/// What can stop locating photos from tracks: a track file that cannot be used at all. (A bad point
/// inside a readable track is skipped and counted, not an error.)
public enum GeotagError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file cannot be opened or read.
    case unreadable(path: String, reason: String)
    /// The file is not well-formed XML (or is empty), at this line.
    case malformed(path: String, line: Int, message: String)
    /// The file is XML, but its root element is not `gpx`.
    case notGPX(path: String, line: Int, root: String)

    /// What failed (the command line adds what to do about it).
    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "cannot read the track \(path): \(reason)"
        case let .malformed(path, line, message): return "\(path), line \(line): not well-formed XML: \(message)"
        case let .notGPX(path, line, root): return "\(path), line \(line): <\(root)> is not a GPX file's <gpx>"
        }
    }
}
