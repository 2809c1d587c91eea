extension Signal {
    /// Sends the values that are not `nil`, unwrapped; errors and completion pass through.
    ///
    /// ```swift
    /// optionalNames.ignoreNil()   // "a", nil, "b" -> "a", "b"
    /// ```
    ///
    /// RAC 2.5: `-ignore:` with `nil` (RAC 4: `ignoreNil()`).
    @inlinable
    public func ignoreNil<Wrapped>() -> Signal<Wrapped, Failure> where Value == Wrapped? {
        compactMap { $0 }.named(derivedName("-ignore: nil"))
    }
}
