// SPDX-License-Identifier: Apache-2.0
/// What a page or an index entry is made from, reduced to a SHA-256: an export renders a page again only
/// when this changed (`SiteManifest`), the index adds a listing again only when its records changed
/// (`IndexRecorder`). Every value goes in with its length or a tag, so two different inputs never run
/// together into the same bytes (`["a b"]` and `["a", "b"]` differ).
public final class InputDigest {
    /// Made only when the inputs outgrow `flushSize`: a photo page's few hundred bytes are hashed in one
    /// call, which costs less than making an OpenSSL context (two for each of 100,000 photos).
    private var hasher: SHA256.Hasher?
    private var buffer: [UInt8] = []

    /// Inputs starting with `values` (a page's path, the site's stamp, …).
    public init(_ values: String...) {
        // A photo's fields take a few hundred bytes; a list page's inputs grow up to `flushSize`.
        buffer.reserveCapacity(512)
        for value in values { add(value) }
    }

    /// Adds a string.
    public func add(_ text: String) {
        add(text.utf8.count)
        buffer.append(contentsOf: text.utf8)
        flushIfFull()
    }

    /// Adds a string or its absence (distinct from "").
    public func add(_ text: String?) {
        buffer.append(text == nil ? 0 : 1)
        if let text { add(text) }
    }

    /// Adds a number.
    public func add(_ number: Int) {
        withUnsafeBytes(of: Int64(number).littleEndian) { buffer.append(contentsOf: $0) }
    }

    /// Adds a number or its absence.
    public func add(_ number: Int?) {
        buffer.append(number == nil ? 0 : 1)
        if let number { add(number) }
    }

    /// Adds another digest (a photo's, from `Photo.inputDigest`).
    public func add(digest: some Collection<UInt8>) {
        buffer.append(contentsOf: digest)
        flushIfFull()
    }

    /// The digest of everything added, as hex; the inputs are spent.
    public func finish() -> String {
        SHA256.hex(digest: finishDigest())
    }

    /// The digest of everything added; the inputs are spent.
    public func finishDigest() -> [UInt8] {
        guard let hasher else { return SHA256.digest(buffer) }
        flush()
        return hasher.finish()
    }

    /// Bytes gathered before they go to the hasher: one update per many small values.
    private static let flushSize = 16 << 10

    private func flushIfFull() {
        if buffer.count >= Self.flushSize { flush() }
    }

    private func flush() {
        let hasher = hasher ?? SHA256.Hasher()
        self.hasher = hasher
        buffer.withUnsafeBytes { hasher.update($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
