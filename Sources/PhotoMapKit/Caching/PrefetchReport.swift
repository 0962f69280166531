// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

/// How far a prefetch has got, over every size it fetches.
public struct PrefetchProgress: Sendable {
    /// Images asked for.
    public let total: Int
    /// Images answered so far (stored, already cached or failed).
    public let done: Int
    /// Of those, the ones that failed.
    public let failed: Int
}

/// What a prefetch did for one size of image.
public struct PrefetchReport: Sendable {
    /// The size these images are of.
    public let size: PhotoSize
    /// Images asked for: one for each photo added.
    public let total: Int
    /// Images now on disk.
    public let succeeded: Int
    /// Photo id and error of each image that could not be had.
    public let failures: [(photoID: String, error: ThumbnailError)]
}
