extension Signal {
    /// Sends this signal's values and completion, and `transform(error)` in place of its error.
    ///
    /// ```swift
    /// fetch.mapError { AppError.network($0) }
    /// ```
    ///
    /// RAC 2.5: none; RAC 4: `mapError(_:)`.
    @inlinable
    public func mapError<NewFailure>(
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> Signal<Value, NewFailure> {
        liftSink { MapErrorSink($0, transform) }.named(derivedName("-mapError:"))
    }
}

extension Signal where Failure == Never {
    /// This signal, which cannot fail, as a signal with the failure type `NewFailure`, so that it
    /// combines with signals that can.
    ///
    /// ```swift
    /// let ticks: Signal<Int, NetworkError> = counter.promoteError()
    /// ```
    ///
    /// - Parameter _: The new failure type; inferred from the context when left out.
    ///
    /// RAC 2.5: none; RAC 4: `promoteErrors(_:)`.
    public func promoteError<NewFailure>(_: NewFailure.Type = NewFailure.self) -> Signal<Value, NewFailure> {
        liftSink { PromoteErrorSink($0) }.named(derivedName("-promoteErrors"))
    }
}

/// Passes values and completion on, and each error as `transform` makes it.
@usableFromInline
package final class MapErrorSink<Value, Failure: Error, NewFailure: Error>: FailureChangingSink<Value, Failure, Value, NewFailure>, @unchecked Sendable {
    @usableFromInline
    init(_ downstream: Sink<Value, NewFailure>, _ transform: @escaping @Sendable (Failure) -> NewFailure) {
        super.init(downstream, convertingErrors: transform)
    }

    package override func receive(_ value: Value) {
        downstream.receive(value)
    }
}

/// Turns the error that a signal which never fails cannot send into any type.
private func absurd<T>(_ never: Never) -> T {}

/// Passes values and completion on; there is no error to pass.
private final class PromoteErrorSink<Value, NewFailure: Error>: FailureChangingSink<Value, Never, Value, NewFailure>, @unchecked Sendable {
    init(_ downstream: Sink<Value, NewFailure>) {
        super.init(downstream, convertingErrors: absurd)
    }

    package override func receive(_ value: Value) {
        downstream.receive(value)
    }
}
