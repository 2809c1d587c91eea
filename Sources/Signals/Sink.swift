import Disposables

/// The receiving end of one subscription inside the library: operators chain sinks.
///
/// Sinks are called one event at a time, in order: every event enters a chain through a
/// ``DeliveryLock`` (a ``Subscriber``, a pipe's input, the output of an operator that merges
/// several inputs), and the sinks downstream trust that order, so a value's path is a few direct
/// calls with no lock and no allocation. The rules of the chain:
///
/// - A producer calls ``attach(_:)`` with the subscription's disposable before it can send the
///   sink anything (one that sends everything synchronously, before it returns, need not attach).
/// - ``cancel()`` comes, like the events, from the thread that owns the chain's delivery lock, when
///   the subscription is disposed before it ended: the chain lets go of what it holds and delivers
///   nothing more, including the rest of an event under way further up the stack.
///
/// A sink is also a ``Disposable``, so an operator can keep it in a compound disposable and dispose
/// its subscription with it.
///
/// `Sink` itself does nothing with an event a subclass does not override: right for the inputs of
/// an operator that merges several (a trigger, a junction's input), which each decide what an
/// event means. A one-input operator derives from ``PassthroughSink`` or ``FailureChangingSink``
/// (built with ``Signal/liftSink(_:)``), or from ``PassthroughSubscriberSink`` or
/// ``FailureChangingSubscriberSink`` (built with ``Signal/liftSink(throughSubscriber:)``), which
/// pass errors and completion on unless told otherwise.
@usableFromInline
package class Sink<Value, Failure: Error>: Disposable, @unchecked Sendable {
    /// A sink that does nothing with its events until a subclass says what.
    ///
    /// Inlined into every subclass's initializer, as the deinitializer is into theirs: the
    /// release build compiles each file on its own once the module is optimized, so a subclass
    /// in another file would otherwise call both, 8 instructions more per subscription
    /// (`signal.churn`, once `ClosureSink` had a file of its own).
    @usableFromInline @inline(__always)
    package override init() {
        super.init()
    }

    @inline(__always)
    deinit {}

    /// Receives a value.
    @usableFromInline
    package func receive(_ value: Value) {}

    /// A closure that receives this sink's values exactly as ``receive(_:)`` does until
    /// ``cancel()`` or a terminal event comes, or `nil` (the default) when there is none.
    ///
    /// The owner of the delivery lock right above the sink may keep it for a run of values (a
    /// ``Burst``) and call it instead of the sink, sparing the retain a call through a stored
    /// closure costs each time: the run stops once the lock is closed, which comes before either.
    @usableFromInline
    package func valueHandler() -> ((Value) -> Void)? { nil }

    /// Receives an error; nothing is received after it. Here, does nothing.
    package func receive(error: Failure) {}

    /// Receives completion; nothing is received after it. Here, does nothing.
    package func receiveCompleted() {}

    /// Learns the disposable of the subscription feeding it, before the first event, so it can end
    /// that subscription early (as `take` does). Operators pass it on downstream.
    @usableFromInline
    package func attach(_ upstream: Disposable) {}

    /// The subscription feeding this sink was disposed before it ended: deliver nothing more, and
    /// let go of the user's closures. One-input operators pass it on downstream; a sink that feeds
    /// a merging operator's output does not (that output is cancelled with its own subscription).
    package func cancel() {}

    /// Nothing can send to this sink any more (the input of a hot signal, or the hot signal it
    /// subscribed to, was released), though no terminal event came: let go of what only a sender
    /// would use. As the owner of the chain's delivery. Only a sink that is held by more than its
    /// source does anything here: a hot signal's subscribers, a subscription that is also the
    /// disposable handed downstream; the rest are simply released.
    package func inputReleased() {}

    /// Receives `event`.
    @inline(__always)
    package final func send(_ event: Event<Value, Failure>) {
        switch event {
        case let .next(value): receive(value)
        case let .error(error): receive(error: error)
        case .completed: receiveCompleted()
        }
    }
}
