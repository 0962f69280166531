// SPDX-License-Identifier: Apache-2.0
import PhotoMapModel

extension ThumbnailCache {
    /// How the cache behaves.
    public struct Configuration: Sendable {
        /// The LRU limit; past it, least-recently-used entries go until ~70% remain.
        public var limitBytes: Int
        /// Images being fetched, checked and stored at once: each holds its body in memory.
        public var maximumDownloadsInProgress: Int
        /// Builds square URLs for records without `url_*` extras.
        public var imageHost: ImageHost
        /// Where the cache tells what it could not do without failing a request (its journal).
        public var warn: @Sendable (String) -> Void
        /// Where each hit and miss is told, one line each, when someone listens (`--verbose`).
        public var trace: (@Sendable (String) -> Void)?

        /// 512 MB and up to 128 images in progress by default.
        public init(
            limitBytes: Int = 512 << 20, maximumDownloadsInProgress: Int = 128, imageHost: ImageHost = .flickr,
            warn: @escaping @Sendable (String) -> Void = { _ in }, trace: (@Sendable (String) -> Void)? = nil
        ) {
            self.limitBytes = limitBytes
            self.maximumDownloadsInProgress = max(maximumDownloadsInProgress, 1)
            self.imageHost = imageHost
            self.warn = warn
            self.trace = trace
        }
    }
}
