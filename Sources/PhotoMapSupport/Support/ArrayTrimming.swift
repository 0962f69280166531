// SPDX-License-Identifier: Apache-2.0
extension Array {
    /// The same elements in an array of their size: one grown element by element can hold twice its count.
    package func trimmed() -> [Element] {
        guard capacity > count else { return self }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: self)
        }
    }
}
