// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

// Pages written many at a time, rendered on every core.
extension SiteWriter {
    /// A page for `writePages`: where it goes, what it is made from, how it is made.
    struct PageJob {
        let path: String
        let inputs: InputDigest
        /// Called on any thread, beside other pages' renders.
        let render: @Sendable () throws -> String
    }

    /// Writes `pages` as `writePage` writes each, the ones not current rendered and written on every core
    /// at once: each is its own file, and what they share (the manifest, the counts, the folders made) is
    /// touched only on the calling thread, before and after. The first failure, in the pages' order, is
    /// thrown once all have run and the pages written are recorded.
    func writePages(_ pages: [PageJob]) throws {
        var pending: [(path: String, inputs: SiteManifest.Inputs, render: @Sendable () throws -> String, isNew: Bool)] =
            []
        for page in pages {
            let inputs = SiteManifest.Inputs(digest: page.inputs.finishDigest())
            if manifest.isCurrent(page.path, inputs: inputs, identity: identity) {
                unchanged += 1
            } else {
                try createFolder(of: page.path)
                pending.append((page.path, inputs, page.render, folderWasMissing(page.path)))
            }
        }
        rendered += pending.count
        let directory = openRoot(), rootPath = rootPath, renders = pending.map(\.render)
        let paths = pending.map(\.path), new = pending.map(\.isNew)
        let outcomes = Locked([Result<StoredFile, any Error>?](repeating: nil, count: pending.count))
        DispatchQueue.concurrentPerform(iterations: pending.count) { index in
            let outcome = Result<StoredFile, any Error> {
                try Self.store(
                    Data(try renders[index]().utf8), at: paths[index], root: rootPath,
                    directory: directory, isNew: new[index])
            }
            outcomes.withLock { $0[index] = outcome }
        }
        var failure: (any Error)?
        for (page, outcome) in zip(pending, outcomes.withLock { $0 }) {
            switch outcome {
            case let .success(stored):
                count(stored)
                manifest.record(page.path, inputs: page.inputs) { _ in stored.identity }
            case let .failure(error): failure = failure ?? error
            case nil: continue
            }
        }
        if let failure { throw failure }
    }
}
