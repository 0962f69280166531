// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// What a sidecar says of its photo's location.
public struct SidecarLocation: Sendable, Equatable {
    /// The coordinate; nil when photomap removed the location by hand.
    public var coordinate: Coordinate?
    /// photomap's note when the GPS is as photomap wrote it, else `.sidecar` (another tool's).
    public var source: LocationSource
}
