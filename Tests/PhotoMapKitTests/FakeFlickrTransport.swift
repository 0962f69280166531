// SPDX-License-Identifier: Apache-2.0
import Foundation
import PhotoMapSupport

@testable import PhotoMapKit

/// Flickr's API in the tests that need no server: each call answered by `answer` (given the call's number
/// from 0, its method and parameters), every call recorded with its method, and the most calls in
/// progress at once noted.
final class FakeFlickrTransport: FlickrTransport, Sendable {
    typealias Answer = @Sendable (_ call: Int, _ method: String, _ parameters: [String: String]) -> String
    private let answer: Answer
    /// How long each answer takes: long enough for a second call to overlap, were one made.
    private let delay: TimeInterval
    private let state = Locked((calls: [[String: String]](), inProgress: 0, mostInProgress: 0))

    init(delay: TimeInterval = 0, answer: @escaping Answer) {
        self.delay = delay
        self.answer = answer
    }

    /// Answers `bodies` in turn, the last one for every call after.
    convenience init(_ bodies: String...) {
        self.init { call, _, _ in bodies[min(call, bodies.count - 1)] }
    }

    /// Answers each method with its own body, and any other as Flickr does (code 112).
    convenience init(methods: [String: String]) {
        self.init { _, method, _ in methods[method] ?? #"{"stat":"fail","code":112,"message":"Method not found"}"# }
    }

    /// Each call's parameters, with its method, in order.
    var calls: [[String: String]] { state.withLock { $0.calls } }
    /// The pages asked for, in order.
    var pages: [Int] { calls.map { Int($0["page"] ?? "") ?? 0 } }
    /// The most calls in progress at once.
    var mostInProgress: Int { state.withLock { $0.mostInProgress } }

    func call(method: String, parameters: [String: String]) throws -> Data {
        let number = state.withLock { state in
            state.calls.append(parameters.merging(["method": method]) { $1 })
            state.inProgress += 1
            state.mostInProgress = max(state.mostInProgress, state.inProgress)
            return state.calls.count - 1
        }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        state.withLock { $0.inProgress -= 1 }
        return Data(answer(number, method, parameters).utf8)
    }

    /// Endless distinct pages of `per_page` photos.
    static func endlessPages() -> FakeFlickrTransport {
        FakeFlickrTransport { _, _, parameters in
            let page = Int(parameters["page"] ?? "1") ?? 1, perPage = Int(parameters["per_page"] ?? "100") ?? 100
            let photos = (0..<perPage).map { #"{"id":"\#((page - 1) * perPage + $0)"}"# }.joined(separator: ",")
            return #"{"photos":{"page":\#(page),"pages":999999,"photo":[\#(photos)]},"stat":"ok"}"#
        }
    }

    /// `announced` pages of two photos each, the pages after `newUntil` repeating it; each answer takes 2 ms.
    static func pages(announced: Int, newUntil: Int) -> FakeFlickrTransport {
        FakeFlickrTransport(delay: 0.002) { _, _, parameters in
            let page = Int(parameters["page"] ?? "") ?? 0
            let first = (min(page, newUntil) - 1) * 2 + 1
            return #"{"photos":{"page":\#(page),"pages":\#(announced),"perpage":2,"total":"\#(2 * announced)","#
                + #""photo":[{"id":"\#(first)"},{"id":"\#(first + 1)"}]},"stat":"ok"}"#
        }
    }
}
