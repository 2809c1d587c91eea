extension Signal {
    /// Sends `transform(value)` for each value for which it returns a value, and nothing for the
    /// others; errors and completion pass through. `map` and `ignoreNil()` in one step.
    ///
    /// ```swift
    /// texts.compactMap { Int($0) }   // "1", "x", "3" -> 1, 3
    /// ```
    ///
    /// Other libraries: RxSwift's and Combine's `compactMap`, ReactiveSwift's `compactMap`
    /// (`filterMap` before 6.0).
    ///
    /// New; RAC 2.5 has none (its nearest is `-map:` then `-ignore:` with `nil`).
    @inlinable
    public func compactMap<U>(_ transform: @escaping @Sendable (Value) -> U?) -> Signal<U, Failure> {
        // The unwrapping is written here, in the caller's specialization, where `U?` is a known
        // type: an unspecialized sink unwrapping a `U?` pays for generic value witnesses on every
        // value.
        liftSink { downstream in
            CompactMapSink<Value, U, Failure>(downstream) { value, downstream in
                if let output = transform(value) { downstream.receive(output) }
            }
        }.named(derivedName("-compactMap:"))
    }
}

/// `map` and `ignoreNil()` in one sink: `step` transforms a value and sends the result downstream
/// when there is one.
@usableFromInline
package final class CompactMapSink<Value, U, Failure: Error>: PassthroughSink<Value, U, Failure>, @unchecked Sendable {
    private let step: @Sendable (Value, Sink<U, Failure>) -> Void

    @usableFromInline
    init(_ downstream: Sink<U, Failure>, _ step: @escaping @Sendable (Value, Sink<U, Failure>) -> Void) {
        self.step = step
        super.init(downstream)
    }

    package override func receive(_ value: Value) {
        step(value, downstream)
    }
}
