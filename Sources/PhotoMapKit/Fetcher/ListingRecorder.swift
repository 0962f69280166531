// SPDX-License-Identifier: Apache-2.0
/// Told of every listing a source fetched, so that what was fetched can be kept: the local index keeps
/// it for offline search (`IndexRecorder`).
public protocol ListingRecorder: Sendable {
    /// Keeps the places and photos of one listing, as annotated; a failure is the recorder's to report.
    func record(places: [AnnotatedPlace], photos: [AnnotatedPhoto])
}
