// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapModel

/// Keeps the locations photomap set or took away in the photos' XMP sidecars, one beside (or for) each
/// file holding the photo. A sidecar that cannot be written is reported; the catalog keeps its change.
public struct SidecarWriter: Sendable {
    /// Where each sidecar goes.
    public let placement: SidecarPlacement

    /// What one run wrote, and the sidecars it left as they were, and why.
    public struct Report: Sendable {
        /// Sidecars written.
        public var written = 0
        /// Each sidecar left as it was.
        public var problems: [SidecarError] = []
        /// Files below none of the sidecars' folder's import folders: no sidecar for them.
        public var unplaced: [String] = []
    }

    /// A writer putting sidecars where `placement` says.
    public init(placement: SidecarPlacement) {
        self.placement = placement
    }

    /// Writes each photo's location (as its record now is) into the sidecars of the files of `catalog`
    /// holding it; of a photo whose own GPS stands (an undo put it back), what photomap wrote is taken out.
    public func write(_ photos: [Photo], of catalog: any LocalCatalogStore) throws -> Report {
        var report = Report()
        for photo in photos {
            for (path, _) in try catalog.files(ofPhoto: photo.id) {
                let file = String(decoding: path, as: UTF8.self)
                guard let sidecar = placement.path(for: file) else {
                    report.unplaced.append(file)
                    continue
                }
                do {
                    if photo.locationSource == .exif {
                        if try SidecarFile.forget(at: sidecar) { report.written += 1 }
                    } else {
                        try SidecarFile.write(photo.coordinate, source: photo.locationSource, at: sidecar)
                        report.written += 1
                    }
                } catch {
                    report.problems.append(error)
                }
            }
        }
        return report
    }
}
