import Disposables

/// A sink in an operator: forwards `attach` to the sink downstream.
@usableFromInline
package class OperatorSink<Value, Failure: Error, DownstreamValue, DownstreamFailure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    @usableFromInline package let downstream: Sink<DownstreamValue, DownstreamFailure>

    @usableFromInline
    package init(_ downstream: Sink<DownstreamValue, DownstreamFailure>) {
        self.downstream = downstream
        super.init()
    }

    package override func attach(_ upstream: Disposable) {
        downstream.attach(upstream)
    }

    package override func cancel() {
        downstream.cancel()
    }
}

/// A sink of a one-input operator that keeps the failure type: errors and completion pass through.
@usableFromInline
package class PassthroughSink<Value, DownstreamValue, Failure: Error>: OperatorSink<Value, Failure, DownstreamValue, Failure>, @unchecked Sendable {
    package override func receive(error: Failure) {
        downstream.receive(error: error)
    }

    package override func receiveCompleted() {
        downstream.receiveCompleted()
    }
}

extension Signal {
    /// A signal whose subscriptions subscribe `makeSink(downstream)` to this signal: how the
    /// one-input operators are built.
    ///
    /// `makeSink` may run on any thread; it should only build the sink from what it captured.
    ///
    /// `@inlinable`, as the operators that are: a client that builds one with its own types then
    /// looks up none of the generic metadata (of `Sink`, `Signal` and the closure's type) that an
    /// unspecialized `liftSink` looks up each time it is called.
    @inlinable
    package func liftSink<DownstreamValue, DownstreamFailure: Error>(
        _ makeSink: @escaping (Sink<DownstreamValue, DownstreamFailure>) -> Sink<Value, Failure>
    ) -> Signal<DownstreamValue, DownstreamFailure> {
        let makeSink = UncheckedSendable(makeSink)
        return Signal<DownstreamValue, DownstreamFailure>(producer: { downstream in
            self.attachSink(makeSink.value(downstream))
        })
    }
}
