// SPDX-License-Identifier: Apache-2.0
import Foundation

/// An error type that tells a full disk from other failures to write: the cache's and the site's.
package protocol WriteFailure: Error {
    /// The disk is full (or the user's quota is spent).
    static func diskFull(path: String) -> Self
    /// Writing failed for another reason.
    static func writeFailed(path: String, reason: String) -> Self
}

extension WriteFailure {
    /// The error for a write to `path` that failed with errno `code`: ENOSPC and EDQUOT are "disk full",
    /// anything else names the reason.
    package static func writing(_ code: Int32, path: String) -> Self {
        if code == ENOSPC || code == EDQUOT { return .diskFull(path: path) }
        return .writeFailed(path: path, reason: String(cString: strerror(code)))
    }
}
