/// A value worked out once, on first use, and shared by every later caller (from any thread).
final class Memo<Value: Sendable>: Sendable {
    private let stored = Locked<Value?>(nil)

    /// The value, from `load` the first time. Two first callers at once may both load; one result is kept.
    func value(_ load: () -> Value) -> Value {
        if let known = stored.withLock({ $0 }) { return known }
        let loaded = load()
        return stored.withLock { current in
            if let current { return current }
            current = loaded
            return loaded
        }
    }
}
