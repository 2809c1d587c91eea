import Disposables

extension Signal {
    /// Sends this signal's values and completion; on an error, subscribes to the signal `handler`
    /// makes from it and sends what that signal sends instead.
    ///
    /// The failed subscription is disposed before `handler` runs. The result ends when the
    /// handler's signal ends, and may have another failure type: `Never` when the handler's signal
    /// cannot fail. Disposal disposes whichever subscription is current.
    ///
    /// ```swift
    /// fetch.catch { _ in Signal<Data, Never>.return(cachedData) }
    /// ```
    ///
    /// RAC 2.5: `-catch:`.
    public func `catch`<NewFailure>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        catching(handler).named(derivedName("-catch:"))
    }

    /// ``catch(_:)`` for a handler whose signal keeps the failure type, so that its result needs
    /// no type annotation: `signal.catch { _ in .empty }`.
    ///
    /// RAC 2.5: `-catch:`.
    public func `catch`(_ handler: @escaping @Sendable (Failure) -> Signal) -> Signal {
        catching(handler).named(derivedName("-catch:"))
    }

    /// Sends this signal's values and completion; on an error, sends what `replacement` sends
    /// instead.
    ///
    /// The same as `catch { _ in replacement }`.
    ///
    /// RAC 2.5: `-catchTo:`.
    @inlinable
    public func `catch`<NewFailure>(to replacement: Signal<Value, NewFailure>) -> Signal<Value, NewFailure> {
        catching { _ in replacement }.named(derivedName("-catchTo: \(replacement.name ?? "")"))
    }

    /// ``catch(to:)`` for a replacement that keeps the failure type, so that it needs no type
    /// annotation: `signal.catch(to: .empty)`.
    ///
    /// RAC 2.5: `-catchTo:`.
    @inlinable
    public func `catch`(to replacement: Signal) -> Signal {
        catching { _ in replacement }.named(derivedName("-catchTo: \(replacement.name ?? "")"))
    }

    // `@inlinable`, as the operators that are: a client that catches with its own types then
    // looks up none of the generic metadata (of `Signal`, `Subscriber` and `CatchSink`) that
    // unspecialized code looks up for each signal made and each subscription.
    @inlinable
    func catching<NewFailure>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        // The source and the handler's signal may send on different threads: their events meet
        // at one subscriber, which serializes them and is what disposal closes. The slot holds
        // the source's subscription, then the handler's signal's.
        Signal<Value, NewFailure>.switchingOver { output, current in
            _ = self.attachSink(CatchSink(output, current: current, handler: handler))
        }
    }
}

/// The source side of `catch`: on an error, subscribes the output to the handler's signal.
@usableFromInline
package final class CatchSink<Value, Failure: Error, NewFailure: Error>: FailureChangingSubscriberSink<Value, Failure, Value, NewFailure>, @unchecked Sendable {
    private let current: SerialDisposable

    @usableFromInline
    init(
        _ output: Subscriber<Value, NewFailure>,
        current: SerialDisposable,
        handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) {
        self.current = current
        super.init(output, routingErrors: { output, error in
            // The source's subscription has ended: the handler's signal's takes its place.
            _ = handler(error).attachSink(SlottedForwardingSink(output, slot: current))
        })
    }

    package override func attach(_ upstream: Disposable) {
        current.disposable = upstream
    }

    package override func receive(_ value: Value) {
        output.sendNext(value)
    }
}
