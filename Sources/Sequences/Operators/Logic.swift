import Signals
import Tuples

extension LazyList where Element == Bool {
    /// A list of the negation of each element, computed when pulled.
    ///
    /// ```swift
    /// LazyList([true, false]).not().array   // [false, true]
    /// ```
    ///
    /// RAC 2.5: `-not` (of `RACStream`'s signals; RAC 2.5's sequences have none).
    public func not() -> LazyList<Bool> {
        mapping { !$0 }
    }
}

extension LazyList where Element == [Bool] {
    /// A list of whether all the values of each array element are `true`, computed when pulled.
    ///
    /// ```swift
    /// LazyList([[true, true], [true, false]]).and().array   // [true, false]
    /// ```
    ///
    /// - Precondition: Each array has at least one value, as RAC 2.5 asserts for signals; an empty
    ///   one stops the program, with a message naming `and()`, when it is pulled.
    ///
    /// RAC 2.5: `-and` (of signals).
    public func and() -> LazyList<Bool> {
        mapping { values in !booleans(of: values, for: "and()").contains(false) }
    }

    /// A list of whether any value of each array element is `true`, computed when pulled.
    ///
    /// ```swift
    /// LazyList([[false, true], [false, false]]).or().array   // [true, false]
    /// ```
    ///
    /// - Precondition: Each array has at least one value; an empty one stops the program, with a
    ///   message naming `or()`, when it is pulled.
    ///
    /// RAC 2.5: `-or` (of signals).
    public func or() -> LazyList<Bool> {
        mapping { values in booleans(of: values, for: "or()").contains(true) }
    }
}

extension LazyList where Element == Tuple {
    /// A list of whether all the values of each tuple element are `true`, computed when pulled.
    ///
    /// - Precondition: Each tuple has at least one value, and every value is a `Bool` (a hole is
    ///   not); anything else stops the program, with a message naming `and()`, when it is pulled.
    ///
    /// RAC 2.5: `-and` (of signals).
    public func and() -> LazyList<Bool> {
        mapping { tuple in !booleans(of: tuple, for: "and()").contains(false) }
    }

    /// A list of whether any value of each tuple element is `true`, computed when pulled.
    ///
    /// - Precondition: Each tuple has at least one value, and every value is a `Bool`; anything
    ///   else stops the program, with a message naming `or()`, when it is pulled.
    ///
    /// RAC 2.5: `-or` (of signals).
    public func or() -> LazyList<Bool> {
        mapping { tuple in booleans(of: tuple, for: "or()").contains(true) }
    }
}
