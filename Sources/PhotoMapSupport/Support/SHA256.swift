// SPDX-License-Identifier: Apache-2.0
import CCrypto

/// SHA-256 through OpenSSL's libcrypto, for file names derived from keys (cache entries, answers,
/// page names): the name is a hash, so no server-supplied text shapes a path; and for what an
/// exported page is made from (`InputDigest`).
public enum SHA256 {
    /// The digest of `bytes` as 64 lowercase hex digits (the digest itself never leaves the stack).
    public static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
            hash(bytes, into: digest)
            return hex(digest: digest)
        }
    }

    /// Bytes (a digest, or a bytea's megabytes) as lowercase hex digits, two a byte. Inlinable, so a caller's
    /// `Data` or array is read as contiguous bytes: unspecialised, each byte cost generic metadata lookups
    /// (a third of a records load's time).
    @inlinable
    public static func hex<Digest: Collection>(digest: Digest) -> String where Digest.Element == UInt8 {
        let count = digest.count
        return String(unsafeUninitializedCapacity: 2 * count) { text in
            let digits: StaticString = "0123456789abcdef"
            func write(_ bytes: UnsafeBufferPointer<UInt8>) {
                for index in 0..<bytes.count {
                    let byte = bytes[index]
                    text[2 * index] = digits.utf8Start[Int(byte >> 4)]
                    text[2 * index + 1] = digits.utf8Start[Int(byte & 0x0F)]
                }
            }
            if digest.withContiguousStorageIfAvailable(write) == nil { Array(digest).withUnsafeBufferPointer(write) }
            return 2 * count
        }
    }

    /// The digest of the UTF-8 bytes of `text` as hex.
    public static func hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { hex($0) }
    }

    /// The 32-byte digest of `bytes`.
    public static func digest<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        [UInt8](unsafeUninitializedCapacity: 32) { output, count in
            hash(bytes, into: output)
            count = 32
        }
    }

    /// Writes the digest of `bytes` into `output` (32 bytes).
    private static func hash<Bytes: Collection>(_ bytes: Bytes, into output: UnsafeMutableBufferPointer<UInt8>)
    where Bytes.Element == UInt8 {
        let hash = { (buffer: UnsafeRawBufferPointer) in
            photomap_sha256(buffer.baseAddress, buffer.count, output.baseAddress)
        }
        if bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) == nil {
            Array(bytes).withUnsafeBytes(hash)
        }
    }
}

extension SHA256 {
    /// SHA-256 fetched from OpenSSL's providers once: `EVP_sha256()` makes every digest fetch it again
    /// (a locked table lookup that costs more than hashing a short key); `EVP_sha256()` if the fetch fails.
    nonisolated(unsafe) static let algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()

    /// A digest fed piece by piece, for inputs too large to gather first (a page of 100,000 photos).
    public final class Hasher {
        private let context: OpaquePointer?

        /// An empty digest.
        public init() {
            context = EVP_MD_CTX_new()
            // Fails only when out of memory, as EVP_Digest does: the digest is then all zeros, never a crash.
            _ = EVP_DigestInit_ex(context, SHA256.algorithm, nil)
        }

        /// Adds `buffer`'s bytes.
        public func update(_ buffer: UnsafeRawBufferPointer) {
            _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }

        /// The 32-byte digest of everything added; the hasher is spent.
        public func finish() -> [UInt8] {
            var output = [UInt8](repeating: 0, count: 32)
            var size: UInt32 = 0
            _ = EVP_DigestFinal_ex(context, &output, &size)
            return output
        }

        deinit {
            EVP_MD_CTX_free(context)
        }
    }
}
