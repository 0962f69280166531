// SPDX-License-Identifier: Apache-2.0
/// A first-in, first-out queue over an array: appends at the end, takes from a moving head, and lets
/// go of what it handed out at once (a taken slot is cleared; the array is compacted once half of it
/// is taken), so a queue that never empties under steady load holds only what waits.
package struct FIFO<Element> {
    private var items: [Element?] = []
    private var head = 0

    /// An empty queue.
    package init() {}

    /// How many wait.
    package var count: Int { items.count - head }
    package var isEmpty: Bool { count == 0 }

    package mutating func append(_ element: Element) {
        items.append(element)
    }

    /// Puts `element` ahead of every other (a retry goes before what has waited since).
    package mutating func prepend(_ element: Element) {
        if head > 0 {
            head -= 1
            items[head] = element
        } else {
            items.insert(element, at: 0)
        }
    }

    /// The oldest, removed; nil when none waits.
    package mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        defer {
            items[head] = nil
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 64 && head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
        }
        return items[head]
    }
}
extension FIFO: Sendable where Element: Sendable {}
