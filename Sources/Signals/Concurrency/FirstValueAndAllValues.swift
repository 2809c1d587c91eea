// The async forms of the blocking `first()` and `toArray()`: they suspend the task instead of
// blocking a thread. Their names are their own, so that no async method shares its name with a
// synchronous method or operator (an `await` before `signal.collect()` would otherwise pick the
// operator in a synchronous context and only warn).

extension Signal where Value: Sendable {
    /// Subscribes, suspends until the first value or the end, and returns that value, or `nil`
    /// when the signal completes without one or the task is cancelled.
    ///
    /// The subscription is disposed right after the first value, and when the task is
    /// cancelled (which returns at once, without throwing).
    ///
    /// ```swift
    /// let answer = await numbers.firstValue()   // 1
    /// ```
    ///
    /// - Returns: The first value, or `nil`.
    /// - Throws: The signal's error, when it fails before sending a value.
    ///
    /// RAC 2.5: `-first`, which blocks; this one suspends. The blocking form is ``first()``.
    public func firstValue() async throws(Failure) -> Value? {
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
    /// let all = await numbers.allValues()   // [1, 2, 3]
    /// ```
    ///
    /// - Returns: The values, `[]` when it completes without one.
    /// - Throws: The signal's error, when it fails; the values before it are dropped.
    ///
    /// RAC 2.5: `-toArray`, which blocks; this one suspends. The blocking form is ``toArray()``;
    /// the operator ``collect()`` makes a signal that sends the array instead.
    public func allValues() async throws(Failure) -> [Value] {
        let outcome = AsyncOutcome<Value, Failure, [Value]>([]) { values, value in
            values.append(value)
            return false
        }
        return try await outcome.run(self, isolation: nil).get()
    }
}
