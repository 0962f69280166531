// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// Tells another recorder of each listing after the listing has been answered, one listing after
/// another on a thread of its own: a server's pages do not wait for the index's writes, which go one
/// at a time (sixteen pages fetched at once would otherwise answer one write apart).
public final class BackgroundRecorder: ListingRecorder {
    private let recorder: any ListingRecorder
    /// One writer, taking the listings in the order they came.
    private let writer = WorkPool(width: 1)
    /// Counts the listings handed to the writer and not yet written, for `finish`.
    private let unwritten = DispatchGroup()

    /// Records through `recorder`, later.
    public init(_ recorder: any ListingRecorder) {
        self.recorder = recorder
    }

    public func record(places: [AnnotatedPlace], photos: [AnnotatedPhoto]) {
        guard !places.isEmpty || !photos.isEmpty else { return }
        unwritten.enter()
        writer.submit { [self] in
            recorder.record(places: places, photos: photos)
            unwritten.leave()
        }
    }

    /// Waits until every listing recorded so far has been written (a server stopping).
    public func finish() {
        unwritten.wait()
    }
}
