// Hints for the first type error an app developer meets: signals joined by an operator must fail
// with the same error type, and a closure that throws cannot make a signal that never fails. Each
// hint is an unavailable overload that is the best match only for a call that is wrong, so the
// compiler names the fix (`promoteError(_:)`, `mapError(_:)`) instead of printing two function
// types that differ in one generic argument. A correct call always has an available match, which
// the compiler prefers; these are never chosen for it.
//
// Where a hint comes twice, the second form's result fails with a third error type, given by the
// context (`return` of a declared type); it is `@_disfavoredOverload`, so that where both fit, the
// first is the one reported and the two are not ambiguous.
//
// Tests/DiagnosticsCatalog holds a program for each, with its corrected twin; DiagnosticsCatalogTests
// type-checks both and checks the first error of each mistake.

extension Signal where Failure == Never {
    /// A hint, not an operator: `Signal { try await … }` where the signal cannot fail (its
    /// `Failure` is `Never`, as the outer signal's of a `flatMapLatest`): the closure throws.
    @available(*, unavailable, message: "the closure throws, but this signal never fails (its Failure is Never, as the signal it is made for): catch the error inside the closure (try? or do/catch), or let both fail: promoteError(_:) on the outer signal, as numbers.promoteError((any Error).self).flatMapLatest { ... }")
    public convenience init(_ operation: @escaping @Sendable () async throws -> Value) {
        unreachableStubBody()
    }
}

extension Signal {
    /// A hint, not an operator: `flatMapLatest(_:)` to signals that fail with another error type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func flatMapLatest<U, OtherFailure>(_ transform: @escaping @Sendable (Value) -> Signal<U, OtherFailure>) -> Signal<U, OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `flattenMap(_:)` to signals that fail with another error type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func flattenMap<U, OtherFailure>(_ transform: @escaping @Sendable (Value) -> Signal<U, OtherFailure>) -> Signal<U, OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `merge(_:)` with a signal that fails with another error type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func merge<OtherFailure>(_ other: Signal<Value, OtherFailure>) -> Signal<Value, OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `concat(_:)` with a signal that fails with another error type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func concat<OtherFailure>(_ next: Signal<Value, OtherFailure>) -> Signal<Value, OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `combineLatest(with:)` with a signal that fails with another error
    /// type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func combineLatest<U, OtherFailure>(with other: Signal<U, OtherFailure>) -> Signal<(Value, U), OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `zip(with:)` with a signal that fails with another error type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func zip<U, OtherFailure>(with other: Signal<U, OtherFailure>) -> Signal<(Value, U), OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `withLatestFrom(_:)` a signal that fails with another error type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func withLatestFrom<U, OtherFailure>(_ other: Signal<U, OtherFailure>) -> Signal<(Value, U), OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `then(_:)` to a signal that fails with another error type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func then<U, OtherFailure>(_ block: @escaping @Sendable () -> Signal<U, OtherFailure>) -> Signal<U, OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `flatMapLatest(_:)` to signals that fail with another error type,
    /// where the result's error type is a third, given by the context (a `return`).
    @_disfavoredOverload
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func flatMapLatest<U, OtherFailure, ResultFailure>(_ transform: @escaping @Sendable (Value) -> Signal<U, OtherFailure>) -> Signal<U, ResultFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `flattenMap(_:)` to signals that fail with another error type,
    /// where the result's error type is a third, given by the context (a `return`).
    @_disfavoredOverload
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func flattenMap<U, OtherFailure, ResultFailure>(_ transform: @escaping @Sendable (Value) -> Signal<U, OtherFailure>) -> Signal<U, ResultFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `switchToLatest()` of signals that fail with another error type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func switchToLatest<Inner, OtherFailure>() -> Signal<Inner, OtherFailure> where Value == Signal<Inner, OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `switchToLatest()` of signals that fail with another error type, where the
    /// result's error type is a third, given by the context (a `return`).
    @_disfavoredOverload
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func switchToLatest<Inner, OtherFailure, ResultFailure>() -> Signal<Inner, ResultFailure> where Value == Signal<Inner, OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `flatten()` of signals that fail with another error type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func flatten<Inner, OtherFailure>() -> Signal<Inner, OtherFailure> where Value == Signal<Inner, OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `flatten()` of signals that fail with another error type, where the
    /// result's error type is a third, given by the context (a `return`).
    @_disfavoredOverload
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func flatten<Inner, OtherFailure, ResultFailure>() -> Signal<Inner, ResultFailure> where Value == Signal<Inner, OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `concat()` of signals that fail with another error type.
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func concat<Inner, OtherFailure>() -> Signal<Inner, OtherFailure> where Value == Signal<Inner, OtherFailure> {
        unreachableStubBody()
    }

    /// A hint, not an operator: `concat()` of signals that fail with another error type, where the
    /// result's error type is a third, given by the context (a `return`).
    @_disfavoredOverload
    @available(*, unavailable, message: "the signals joined here fail with different error types: make them one. A signal that never fails takes the other's with promoteError(_:) (numbers.promoteError(), or promoteError((any Error).self)); one that fails converts its error with mapError(_:) (mapError { $0 as any Error }, or to a typed error)")
    public func concat<Inner, OtherFailure, ResultFailure>() -> Signal<Inner, ResultFailure> where Value == Signal<Inner, OtherFailure> {
        unreachableStubBody()
    }
}
