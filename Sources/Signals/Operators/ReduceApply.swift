// Variadic generics cannot express these: a function of type `(repeat each T) -> R` held in a
// generic value cannot be abstracted by the compiler ("cannot fully abstract a value of variadic
// function type"), so each arity has its overload, for `@Sendable` functions and for others. The
// latter are disfavored, so a pair whose type is inferred (`map { (add, ($0, 1)) }`) takes the
// `@Sendable` form.

extension Signal {
    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends.
    ///
    /// ```swift
    /// let add: @Sendable (Int, Int) -> Int = { $0 + $1 }
    /// calls.reduceApply()   // (add, (2, 3)) -> 5
    /// ```
    ///
    /// There is one overload for each number of arguments from one to six, for `@Sendable`
    /// functions and for others; a function of one argument comes with that argument alone, not
    /// in a tuple: `(negate, 2)`.
    ///
    /// **Departure:** RAC 2.5 takes a `RACTuple` whose first value is a block and whose other
    /// values are its arguments, asserts at run time that there are enough of them and ignores
    /// any extra. Here the pair is typed: a function and arguments that do not fit do not compile.
    ///
    /// RAC 2.5: `-reduceApply`.
    public func reduceApply<A, R>() -> Signal<R, Failure> where Value == (@Sendable (A) -> R, A) {
        map { call in call.0(call.1) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// functions of two arguments (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    public func reduceApply<A, B, R>() -> Signal<R, Failure> where Value == (@Sendable (A, B) -> R, (A, B)) {
        map { call in call.0(call.1.0, call.1.1) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// functions of three arguments (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    public func reduceApply<A, B, C, R>() -> Signal<R, Failure> where Value == (@Sendable (A, B, C) -> R, (A, B, C)) {
        map { call in call.0(call.1.0, call.1.1, call.1.2) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// functions of four arguments (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    public func reduceApply<A, B, C, D, R>() -> Signal<R, Failure> where Value == (@Sendable (A, B, C, D) -> R, (A, B, C, D)) {
        map { call in call.0(call.1.0, call.1.1, call.1.2, call.1.3) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// functions of five arguments (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    public func reduceApply<A, B, C, D, E, R>() -> Signal<R, Failure> where Value == (@Sendable (A, B, C, D, E) -> R, (A, B, C, D, E)) {
        map { call in call.0(call.1.0, call.1.1, call.1.2, call.1.3, call.1.4) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// functions of six arguments (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    public func reduceApply<A, B, C, D, E, F, R>() -> Signal<R, Failure> where Value == (@Sendable (A, B, C, D, E, F) -> R, (A, B, C, D, E, F)) {
        map { call in call.0(call.1.0, call.1.1, call.1.2, call.1.3, call.1.4, call.1.5) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// non-`@Sendable` functions of one argument (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    @_disfavoredOverload
    public func reduceApply<A, R>() -> Signal<R, Failure> where Value == ((A) -> R, A) {
        map { call in call.0(call.1) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// non-`@Sendable` functions of two arguments (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    @_disfavoredOverload
    public func reduceApply<A, B, R>() -> Signal<R, Failure> where Value == ((A, B) -> R, (A, B)) {
        map { call in call.0(call.1.0, call.1.1) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// non-`@Sendable` functions of three arguments (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    @_disfavoredOverload
    public func reduceApply<A, B, C, R>() -> Signal<R, Failure> where Value == ((A, B, C) -> R, (A, B, C)) {
        map { call in call.0(call.1.0, call.1.1, call.1.2) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// non-`@Sendable` functions of four arguments (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    @_disfavoredOverload
    public func reduceApply<A, B, C, D, R>() -> Signal<R, Failure> where Value == ((A, B, C, D) -> R, (A, B, C, D)) {
        map { call in call.0(call.1.0, call.1.1, call.1.2, call.1.3) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// non-`@Sendable` functions of five arguments (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    @_disfavoredOverload
    public func reduceApply<A, B, C, D, E, R>() -> Signal<R, Failure> where Value == ((A, B, C, D, E) -> R, (A, B, C, D, E)) {
        map { call in call.0(call.1.0, call.1.1, call.1.2, call.1.3, call.1.4) }.named(derivedName("-reduceApply"))
    }

    /// Sends `function(arguments…)` for each `(function, arguments)` pair this signal sends, for
    /// non-`@Sendable` functions of six arguments (see the overload for one argument).
    ///
    /// RAC 2.5: `-reduceApply`.
    @_disfavoredOverload
    public func reduceApply<A, B, C, D, E, F, R>() -> Signal<R, Failure> where Value == ((A, B, C, D, E, F) -> R, (A, B, C, D, E, F)) {
        map { call in call.0(call.1.0, call.1.1, call.1.2, call.1.3, call.1.4, call.1.5) }.named(derivedName("-reduceApply"))
    }
}
