extension Signal {
    /// Sends this signal's values unchanged; if it completes without having sent one, sends
    /// `value`, then completes.
    ///
    /// ```swift
    /// results.replaceEmpty(with: [])   // completed -> [], then completes
    /// numbers.replaceEmpty(with: 0)    // 1, 2, completed -> 1, 2, then completes
    /// ```
    ///
    /// Values are not held back: each is sent as it comes, and `value` only at completion. An
    /// error is sent as it is, without `value`, whether or not values came before it. Disposing
    /// the subscription disposes this signal's subscription, and `value` is not sent after it.
    /// Each subscription keeps `value` until this signal's first value, then lets go of it.
    ///
    /// Other libraries: Combine's `replaceEmpty(with:)`, RxSwift's `ifEmpty(default:)`;
    /// ReactiveSwift has none.
    ///
    /// New; RAC 2.5 has none.
    public func replaceEmpty(with value: Value) -> Signal {
        liftSink { ReplaceEmptySink($0, fallback: value) }.named(derivedName("-replaceEmptyWith: \(value)"))
    }
}

/// Passes values on; at completion, sends the fallback first if no value came. It sends at most
/// one value for each event it receives (completion: the fallback, then completion), so it calls
/// the sink downstream directly, as `buffer(count:)` does when it flushes.
private final class ReplaceEmptySink<Value, Failure: Error>: PassthroughSink<Value, Value, Failure>, @unchecked Sendable {
    /// What completion sends if no value came; let go of at the first value.
    private var fallback: Value?
    private var sawValue = false

    init(_ downstream: Sink<Value, Failure>, fallback: Value) {
        self.fallback = fallback
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        if !sawValue {
            sawValue = true
            fallback = nil
        }
        downstream.receive(value)
    }

    package override func receiveCompleted() {
        // `fallback` is `nil` only once a value came (a `nil` fallback of an optional `Value` is
        // `.some(nil)` here).
        if let fallback = fallback.take() {
            downstream.receive(fallback)
        }
        downstream.receiveCompleted()
    }
}
