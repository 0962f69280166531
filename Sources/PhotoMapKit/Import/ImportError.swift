// SPDX-License-Identifier: Apache-2.0
/// What can go wrong with the imported photos as a whole (a file that cannot be read is a line of
/// the import's report, not an error).
public enum ImportError: Error, CustomStringConvertible, Sendable, Equatable {
    /// `--source local` before any import into this cache folder.
    case nothingImported
    /// A folder or file given to `import` cannot be read.
    case unreadable(path: String, reason: String)

    /// What failed (the command line adds what to do about it).
    public var description: String {
        switch self {
        case .nothingImported: return "no photos have been imported into this cache folder yet"
        case let .unreadable(path, reason): return "cannot import \(path): \(reason)"
        }
    }
}
