import Disposables

/// The sink of a one-input operator built with ``Signal/liftSink(_:)``: calls the sink downstream
/// directly, passing on `attach`, `cancel` and completion.
///
/// Not subclassed directly (its initializer is private to this file): a sink derives from
/// ``PassthroughSink``, which keeps the failure type and passes errors on as well, or from
/// ``FailureChangingSink``, which is told at its initialization what an error becomes. So every
/// such sink forwards its errors and its completion unless it overrides them: one that forgets
/// cannot drop them.
@usableFromInline
package class OperatorSink<Value, Failure: Error, DownstreamValue, DownstreamFailure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    /// The next sink of the chain, which this one calls directly.
    @usableFromInline package let downstream: Sink<DownstreamValue, DownstreamFailure>

    fileprivate init(_ downstream: Sink<DownstreamValue, DownstreamFailure>) {
        self.downstream = downstream
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        downstream.attach(upstream)
    }

    package override func cancel() {
        downstream.cancel()
    }

    /// Passes completion on.
    package override func receiveCompleted() {
        downstream.receiveCompleted()
    }
}

/// The sink of a one-input operator that keeps the failure type: errors and completion pass on
/// unless a subclass overrides them. A subclass overrides ``Sink/receive(_:)``.
@usableFromInline
package class PassthroughSink<Value, DownstreamValue, Failure: Error>: OperatorSink<Value, Failure, DownstreamValue, Failure>, @unchecked Sendable {
    /// A sink calling `downstream`.
    @usableFromInline
    package override init(_ downstream: Sink<DownstreamValue, Failure>) {
        super.init(downstream)
    }

    /// Passes the error on.
    package override func receive(error: Failure) {
        downstream.receive(error: error)
    }
}

/// The sink of a one-input operator whose failure type is another than its source's (`mapError`,
/// `promoteError`, `dematerialize`): an error passes on as `convert` makes it, and completion as
/// it is, unless a subclass overrides them. A subclass overrides ``Sink/receive(_:)``.
@usableFromInline
package class FailureChangingSink<Value, Failure: Error, DownstreamValue, DownstreamFailure: Error>: OperatorSink<Value, Failure, DownstreamValue, DownstreamFailure>, @unchecked Sendable {
    private let convert: (Failure) -> DownstreamFailure

    /// A sink calling `downstream`, which sends it `convert(error)` for an error.
    @usableFromInline
    package init(_ downstream: Sink<DownstreamValue, DownstreamFailure>, convertingErrors convert: @escaping (Failure) -> DownstreamFailure) {
        self.convert = convert
        super.init(downstream)
    }

    /// Passes the error on, converted.
    package override func receive(error: Failure) {
        downstream.receive(error: convert(error))
    }
}

extension Signal {
    /// A signal whose subscriptions subscribe `makeSink(downstream)` to this signal: how the
    /// one-input operators that send at most one event for each event they receive are built.
    ///
    /// The sink calls `downstream` directly: no lock, no allocation per event. What it does not
    /// override passes on: errors and completion (see ``OperatorSink``). An operator that sends
    /// several events for one, sends after its source has ended, or must stop in the middle of an
    /// event once disposed is built with ``liftSink(throughSubscriber:)`` instead.
    ///
    /// `makeSink` may run on any thread; it should only build the sink from what it captured.
    ///
    /// `@inlinable`, as the operators that are: a client that builds one with its own types then
    /// looks up none of the generic metadata (of `Sink`, `Signal` and the closure's type) that an
    /// unspecialized `liftSink` looks up each time it is called.
    @inlinable
    package func liftSink<DownstreamValue, DownstreamFailure: Error>(
        _ makeSink: @escaping (Sink<DownstreamValue, DownstreamFailure>) -> OperatorSink<Value, Failure, DownstreamValue, DownstreamFailure>
    ) -> Signal<DownstreamValue, DownstreamFailure> {
        let makeSink = UncheckedSendable(makeSink)
        return Signal<DownstreamValue, DownstreamFailure>(producer: { downstream in
            self.attachSink(makeSink.value(downstream))
        })
    }
}
