// The async twins of the blocking `first()` and of `collect()`: they suspend the task instead of
// blocking a thread or making a signal.
//
// Overloads: in a synchronous context only the blocking `first()` and the operator `collect()`
// exist. In an async context Swift prefers the async forms, so there `signal.first()` and
// `signal.collect()` need `await`, and `signal.collect().map { … }` maps the awaited array. To
// get the operator in an async context, say its type:
// `let all: Signal<[Int], Never> = signal.collect()`, or `(signal.collect() as Signal).map { … }`.

extension Signal {
    /// Subscribes, suspends until the first value or the end, and returns that value, or `nil`
    /// when the signal completes without one or the task is cancelled.
    ///
    /// The subscription is disposed right after the first value, and when the task is
    /// cancelled (which returns at once, without throwing).
    ///
    /// ```swift
    /// let answer = await numbers.first()   // 1
    /// ```
    ///
    /// - Returns: The first value, or `nil`.
    /// - Throws: The signal's error, when it fails before sending a value.
    ///
    /// RAC 2.5: `-first`, which blocks; this one suspends. In an async context it takes the
    /// place of the blocking form, which there needs `await`.
    public func first() async throws(Failure) -> Value? {
        let outcome = AsyncOutcome<Value, Failure, Value?>(nil) { first, value in
            first = value
            return true
        }
        return try await outcome.run(self, isolation: nil).get()
    }

    /// Subscribes, suspends until the signal completes, and returns every value it sent, in
    /// order.
    ///
    /// Cancelling the task disposes the subscription and returns at once, without throwing,
    /// with the values that had arrived.
    ///
    /// ```swift
    /// let all = await numbers.collect()   // [1, 2, 3]
    /// ```
    ///
    /// - Returns: The values, `[]` when it completes without one.
    /// - Throws: The signal's error, when it fails; the values before it are dropped.
    ///
    /// RAC 2.5: `-toArray`, which blocks; this one suspends. In an async context it is chosen
    /// over the operator `collect()` (which makes a `Signal<[Value], Failure>`): give the
    /// result a `Signal` type to get the operator there.
    public func collect() async throws(Failure) -> [Value] {
        let outcome = AsyncOutcome<Value, Failure, [Value]>([]) { values, value in
            values.append(value)
            return false
        }
        return try await outcome.run(self, isolation: nil).get()
    }
}
