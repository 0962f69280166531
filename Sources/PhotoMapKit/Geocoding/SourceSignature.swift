// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

/// What place data made ahead of time (`places.bin`, `names.sqlite`) was made from: each source file's
/// name, size and contents in one SHA-256. No paths or times, so a copy (the package's, a new checkout)
/// still matches and a change of one byte does not.
enum SourceSignature {
    /// The signature of `files`, read a mebibyte at a time (their ~12 MB never count in the process's memory).
    static func of(_ files: [URL]) -> [UInt8] {
        let hasher = SHA256.Hasher()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
        defer { chunk.deallocate() }
        for file in files {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            var size = -1
            if descriptor >= 0 {
                defer { close(descriptor) }
                size = 0
                while true {
                    let count = read(descriptor, chunk.baseAddress, chunk.count)
                    guard count > 0 else {
                        if count < 0 { size = -2 }
                        break
                    }
                    hasher.update(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
                    size += count
                }
            }
            // Name and size after the contents: no file's bytes can pass for another's name.
            Array("\n\(file.lastPathComponent) \(size)\n".utf8).withUnsafeBytes { hasher.update($0) }
        }
        return hasher.finish()
    }
}
