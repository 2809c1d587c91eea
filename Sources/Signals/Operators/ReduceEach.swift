extension Signal {
    /// Sends `reduce(a, b, …)` for each tuple `(a, b, …)` the signal sends.
    ///
    /// ```swift
    /// Signal.zip(names, ages).reduceEach { name, age in "\(name) is \(age)" }
    /// ```
    ///
    /// RAC 2.5: `-reduceEach:`.
    public func reduceEach<each T, R>(_ reduce: @escaping @Sendable (repeat each T) -> R) -> Signal<R, Failure>
    where Value == (repeat each T) {
        map { tuple in reduce(repeat each tuple) }.named(derivedName("-reduceEach:"))
    }
}
