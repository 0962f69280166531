// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A value worked out once, on first use, and shared by every later caller (from any thread). Callers
/// that arrive while it is being worked out wait for that one result (sixteen pages opened at once ask
/// Flickr for the licences once); a load that throws keeps nothing, and the next caller loads again.
package final class Memo<Value: Sendable>: @unchecked Sendable {
    private enum State {
        case empty, loading
        case loaded(Value)
    }

    // `state` is read and written only with `condition` locked; a loader signals it when done.
    private let condition = NSCondition()
    private var state = State.empty

    /// A memo with nothing loaded yet.
    package init() {}

    /// The value, from `load` the first time (run by one caller while the others wait).
    package func value<Failure: Error>(_ load: () throws(Failure) -> Value) throws(Failure) -> Value {
        condition.lock()
        while true {
            switch state {
            case let .loaded(value):
                condition.unlock()
                return value
            case .loading:
                condition.wait()
            case .empty:
                state = .loading
                condition.unlock()
                let outcome = Result<Value, Failure>(catching: load)
                condition.lock()
                if case let .success(value) = outcome { state = .loaded(value) } else { state = .empty }
                condition.broadcast()
                condition.unlock()
                return try outcome.get()
            }
        }
    }

    /// Forgets a loaded value: the next caller loads it again (one being loaded is kept).
    package func forget() {
        condition.lock()
        if case .loaded = state { state = .empty }
        condition.unlock()
    }
}
