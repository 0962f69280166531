// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport
import Testing

/// A producer on its own thread hands items one at a time (a records import's reading thread): all of
/// them, in order, never more than one ahead; either side's error ends both, and nothing outlives `run`.
@Suite("A producer thread hands its items over one at a time")
struct HandoffTests {
    struct Failure: Error, Equatable {
        let side: String
    }

    @Test("every item arrives in order, the producer at most one ahead, and its result comes back")
    func inOrder() throws {
        let made = Locked(0)
        var seen: [Int] = []
        let total = try Handoff.run(
            produce: { hand in
                for item in 0..<500 {
                    made.withLock { $0 += 1 }
                    try hand(item)
                }
                return 500
            },
            consume: { item in
                // Made: this one, perhaps the one waiting, and perhaps the one being handed.
                #expect(made.withLock { $0 } <= item + 3)
                seen.append(item)
            })
        #expect(total == 500 && seen == Array(0..<500))
    }

    @Test("the producer's error comes out after the items it handed before it")
    func producerFails() {
        var seen: [Int] = []
        #expect(throws: Failure(side: "producer")) {
            try Handoff.run(
                produce: { hand in
                    for item in 0..<3 { try hand(item) }
                    throw Failure(side: "producer")
                },
                consume: { seen.append($0) })
        }
        #expect(seen == [0, 1, 2])
    }

    @Test("the consumer's error stops the producer at its next hand-over, before run returns")
    func consumerFails() {
        let ended = Locked(false), handed = Locked(0)
        #expect(throws: Failure(side: "consumer")) {
            try Handoff.run(
                produce: { hand in
                    defer { ended.withLock { $0 = true } }
                    for item in 0..<1_000_000 {
                        try hand(item)
                        handed.withLock { $0 += 1 }
                    }
                },
                consume: { item in if item == 2 { throw Failure(side: "consumer") } })
        }
        #expect(ended.withLock { $0 })
        #expect(handed.withLock { $0 } <= 4)
    }
}
