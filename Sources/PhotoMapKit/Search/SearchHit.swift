// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// One match of a local search.
public struct SearchHit: Sendable {
    public var annotation: Annotation
    /// Text relevance (BM25, higher is better).
    public var relevance: Double
    /// From the search's centre.
    public var distanceKilometres: Double
}
