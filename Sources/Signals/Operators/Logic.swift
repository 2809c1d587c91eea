import Disposables
import Tuples

extension Signal where Value == Bool {
    /// Sends the negation of each value.
    ///
    /// ```swift
    /// flags.not()   // true, false -> false, true
    /// ```
    ///
    /// RAC 2.5: `-not`.
    public func not() -> Signal {
        map { !$0 }.named(derivedName("-not"))
    }
}

extension Signal where Value == [Bool] {
    /// Sends, for each array, whether all of its values are `true`.
    ///
    /// ```swift
    /// Signal.combineLatest([isValidName, isValidEmail]).and()   // [true, false] -> false
    /// ```
    ///
    /// - Precondition: Each array has at least one value, as RAC 2.5 asserts.
    ///
    /// RAC 2.5: `-and`.
    public func and() -> Signal<Bool, Failure> {
        map { values in !booleans(of: values, for: "and()").contains(false) }.named(derivedName("-and"))
    }

    /// Sends, for each array, whether any of its values is `true`.
    ///
    /// ```swift
    /// Signal.combineLatest([isLoadingA, isLoadingB]).or()   // [false, true] -> true
    /// ```
    ///
    /// - Precondition: Each array has at least one value, as RAC 2.5 asserts.
    ///
    /// RAC 2.5: `-or`.
    public func or() -> Signal<Bool, Failure> {
        map { values in booleans(of: values, for: "or()").contains(true) }.named(derivedName("-or"))
    }
}

extension Signal where Value == Tuple {
    /// Sends, for each tuple, whether all of its values are `true`.
    ///
    /// ```swift
    /// tuples.and()   // Tuple(true, true) -> true, Tuple(true, false) -> false
    /// ```
    ///
    /// - Precondition: Each tuple has at least one value, and every value is a `Bool` (a hole is
    ///   not), as RAC 2.5 asserts.
    ///
    /// RAC 2.5: `-and`.
    public func and() -> Signal<Bool, Failure> {
        map { tuple in !booleans(of: tuple, for: "and()").contains(false) }.named(derivedName("-and"))
    }

    /// Sends, for each tuple, whether any of its values is `true`.
    ///
    /// ```swift
    /// tuples.or()   // Tuple(false, true) -> true, Tuple(false, false) -> false
    /// ```
    ///
    /// - Precondition: Each tuple has at least one value, and every value is a `Bool` (a hole is
    ///   not), as RAC 2.5 asserts.
    ///
    /// RAC 2.5: `-or`.
    public func or() -> Signal<Bool, Failure> {
        map { tuple in booleans(of: tuple, for: "or()").contains(true) }.named(derivedName("-or"))
    }
}

/// `values`, for `and()` and `or()` of signals and lists; stops the program with a message naming
/// `operatorName` when the array is empty.
package func booleans(of values: [Bool], for operatorName: String) -> [Bool] {
    checkInput(!values.isEmpty, "\(operatorName) needs at least one value in each array, got []")
    return values
}

/// The values of `tuple` as `Bool`s, for `and()` and `or()` of signals and lists; stops the
/// program with a message naming `operatorName` when the tuple is empty or holds anything else.
package func booleans(of tuple: Tuple, for operatorName: String) -> [Bool] {
    checkInput(tuple.count > 0, "\(operatorName) needs at least one value in each tuple, got ()")
    return tuple.values.map { value in
        guard let boolean = value as? Bool else {
            badInput("\(operatorName) needs a tuple of Bools, got \(tuple)")
        }
        return boolean
    }
}
