// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The members of an object a reader looks for: the cases are the keys, by their names (at most 64);
/// the raw values number them from 0, for storing what was read in an array.
package protocol JSONMember: RawRepresentable, CaseIterable, Sendable where RawValue == Int {
    /// The cases by the bytes of their keys (`JSONKeyLookup(Self.self)`).
    static var lookup: JSONKeyLookup<Self> { get }
}

/// Finds the member a key names from the key's bytes, by a hash of them: no String per key.
package struct JSONKeyLookup<Member: JSONMember>: Sendable {
    private let members: [UInt64: (key: [UInt8], member: Member)]

    package init(_: Member.Type) {
        var members: [UInt64: (key: [UInt8], member: Member)] = [:]
        for member in Member.allCases {
            let key = Array(String(describing: member).utf8)
            members[key.withUnsafeBytes(Self.hash)] = (key, member)
        }
        self.members = members
    }

    /// The member whose key is `bytes`; nil for any other key.
    package func member(_ bytes: UnsafeRawBufferPointer) -> Member? {
        guard let found = members[Self.hash(bytes)], found.key.count == bytes.count, let key = bytes.baseAddress,
            found.key.withUnsafeBytes({ $0.baseAddress.map { memcmp($0, key, bytes.count) == 0 } ?? false })
        else { return nil }
        return found.member
    }

    /// FNV-1a, 64 bits.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}
