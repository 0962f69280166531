// SPDX-License-Identifier: Apache-2.0
import Dispatch
import PhotoMapSupport

@testable import PhotoMapKit
@testable import PhotoMapServer

extension ServerRoutes {
    /// The answer to `request`, waited for when it comes later (the first one handed back counts).
    func answer(_ request: ServerRequest) -> ServerResponse {
        switch handle(request) {
        case let .now(response): return response
        case let .later(work):
            let answered = Locked<ServerResponse?>(nil)
            let done = DispatchSemaphore(value: 0)
            work { response in
                answered.withLock { if $0 == nil { $0 = response } }
                done.signal()
            }
            done.wait()
            return answered.withLock { $0 } ?? .text(599, "none")
        }
    }
}
