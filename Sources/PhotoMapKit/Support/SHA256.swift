import CCrypto

/// SHA-256 through OpenSSL's libcrypto, for file names derived from keys (cache entries, answers,
/// page names): the name is a hash, so no server-supplied text shapes a path.
public enum SHA256 {
    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digest = digest(bytes)
        return String(unsafeUninitializedCapacity: 64) { text in
            let digits: StaticString = "0123456789abcdef"
            for (index, byte) in digest.enumerated() {
                text[2 * index] = digits.utf8Start[Int(byte >> 4)]
                text[2 * index + 1] = digits.utf8Start[Int(byte & 0x0F)]
            }
            return 64
        }
    }

    /// The digest of the UTF-8 bytes of `text` as hex.
    public static func hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { hex($0) }
    }

    /// The 32-byte digest of `bytes`.
    public static func digest<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        let digest = { (buffer: UnsafeRawBufferPointer) -> [UInt8] in
            var output = [UInt8](repeating: 0, count: 32)
            var size: UInt32 = 0
            // EVP_Digest fails only when out of memory; the digest would then be all zeros, never a crash.
            _ = EVP_Digest(buffer.baseAddress, buffer.count, &output, &size, EVP_sha256(), nil)
            return output
        }
        return bytes.withContiguousStorageIfAvailable { digest(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes(digest)
    }
}
