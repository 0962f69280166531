// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Resources that serve one thread at a time (libcurl easy handles, libpq connections), kept while no
/// caller uses them: a caller takes one out, uses it alone, and puts it back. The lock guards only the
/// stack; a resource taken out is reached by its taker alone until it is put back, which is why the
/// unchecked Sendable holds though the resources themselves are not Sendable.
package final class IdleResources<Resource>: @unchecked Sendable {
    private let lock = NSLock()
    private var resources: [Resource] = []
    private let keep: Int

    /// At most `keep` idle resources are kept; one put back past that is let go.
    package init(keep: Int = .max) {
        self.keep = keep
    }

    /// The resource put back last, if any (the one most likely to have a live connection).
    package func take() -> Resource? {
        lock.withLock { resources.popLast() }
    }

    /// Keeps `resource` for the next taker, unless `keep` are kept already.
    package func putBack(_ resource: Resource) {
        lock.withLock { if resources.count < keep { resources.append(resource) } }
    }
}
