import Disposables

/// The state of one ``SignalValues`` iterator: the buffered values, the terminal event still to
/// hand over, the task waiting in `next`, and the subscription.
///
/// A pure state machine: each method changes the state and returns what must happen next, which
/// ``ValuesChannel`` does after unlocking (resume the waiter, dispose the subscription, release
/// dropped values). `Waiter` is the continuation of a suspended `next`; the tests use a plain
/// value instead.
///
/// Invariants: a waiter is stored only while the buffer is empty, no terminal event is pending
/// and the iteration has not finished; every path that takes the waiter out returns it to be
/// resumed, so it is resumed exactly once.
///
/// `@usableFromInline` and `@inlinable`, as the iterator's `next`: specialized in the client, a
/// buffered value costs no generic metadata lookup.
@usableFromInline
struct ValuesStateMachine<Value, Failure: Error, Waiter> {
    /// What `next` does after consulting the state.
    @usableFromInline
    enum NextAction {
        /// Return this value, `nil` for the end, or throw the error.
        case deliver(Result<Value?, Failure>)
        /// Subscribe to the signal (the first `next`), then ask again.
        case subscribe
        /// Suspend until an event or cancellation.
        case wait
    }

    /// What cancellation (or dropping the iterator) leaves to do.
    @usableFromInline
    struct Cancellation {
        @usableFromInline var waiter: Waiter?
        @usableFromInline var subscription: Disposable?
        /// Buffered values, released after unlocking.
        @usableFromInline var dropped: Queue<Value>

        @inlinable
        init(waiter: Waiter?, subscription: Disposable?, dropped: Queue<Value>) {
            self.waiter = waiter
            self.subscription = subscription
            self.dropped = dropped
        }
    }

    @usableFromInline let policy: SignalValues<Value, Failure>.BufferingPolicy
    @usableFromInline var buffer = Queue<Value>()
    /// The terminal event received, handed over once the buffer is drained.
    @usableFromInline var end: Result<Void, Failure>?
    @usableFromInline var hasSubscribed = false
    /// The iterator has returned `nil` or thrown, or was cancelled: every `next` now returns `nil`.
    @usableFromInline var isFinished = false
    @usableFromInline var waiter: Waiter?
    @usableFromInline var subscription: Disposable?

    @inlinable
    init(policy: SignalValues<Value, Failure>.BufferingPolicy) {
        self.policy = policy
    }

    /// The consumer asks for the next element.
    @inlinable
    mutating func next() -> NextAction {
        if let ready = takeReady() { return .deliver(ready) }
        if !hasSubscribed {
            hasSubscribed = true
            return .subscribe
        }
        return .wait
    }

    /// The consumer suspends with `waiter`; returns what to resume it with at once, if anything
    /// is there already (it came, or cancellation did, between `next()` and the suspension).
    @inlinable
    mutating func suspend(_ waiter: Waiter) -> Result<Value?, Failure>? {
        if let ready = takeReady() { return ready }
        // A second waiter would take the place of the first, which would then wait for ever.
        checkInput(
            self.waiter == nil,
            "SignalValues.Iterator.next(): called while another next() on the same iterator (or a copy of it) is waiting; use an iterator from one task at a time"
        )
        self.waiter = waiter
        return nil
    }

    /// A buffered value, else the end once the buffer is drained; `nil` when there is neither.
    @inlinable
    mutating func takeReady() -> Result<Value?, Failure>? {
        if isFinished { return .success(nil) }
        if let value = buffer.popFirst() { return .success(value) }
        guard let end else { return nil }
        isFinished = true
        self.end = nil
        switch end {
        case .success: return .success(nil)
        case let .failure(error): return .failure(error)
        }
    }

    /// The subscription's disposable arrived; returns it when it must be disposed at once
    /// (the iteration was cancelled meanwhile).
    @inlinable
    mutating func attach(_ upstream: Disposable) -> Disposable? {
        if isFinished { return upstream }
        if end == nil, subscription == nil { subscription = upstream }
        return nil
    }

    /// A value arrived. Returns the waiter to resume with it, or a value to release after
    /// unlocking (one the policy dropped, or one that came after the end).
    @inlinable
    mutating func receive(_ value: Value) -> (resume: Waiter?, value: Value?) {
        if isFinished || end != nil { return (nil, value) }
        if let waiter = waiter.take() { return (waiter, value) }
        switch policy {
        case .unbounded:
            buffer.append(value)
            return (nil, nil)
        case let .bufferingOldest(limit):
            if buffer.count >= limit { return (nil, value) }
            buffer.append(value)
            return (nil, nil)
        case let .bufferingNewest(limit):
            if limit == 0 { return (nil, value) }
            let evicted = buffer.count >= limit ? buffer.popFirst() : nil
            buffer.append(value)
            return (nil, evicted)
        }
    }

    /// The terminal event arrived. Returns the waiter to resume with the end, and the
    /// subscription (ended now) to release after unlocking.
    @inlinable
    mutating func receive(end: Result<Void, Failure>) -> (resume: Waiter?, subscription: Disposable?) {
        if isFinished || self.end != nil { return (nil, nil) }
        let subscription = subscription.take()
        guard let waiter = waiter.take() else {
            self.end = end
            return (nil, subscription)
        }
        // A waiter means the buffer is empty: the end goes to it now.
        isFinished = true
        return (waiter, subscription)
    }

    /// The consuming task was cancelled while it waited: finish, and hand back the waiter to
    /// resume with `nil`. The rest (disposal, the buffer) is left to ``cancel()``, which the
    /// consuming task calls once it runs again, outside the cancellation handler.
    @inlinable
    mutating func cancelWaiter() -> Waiter? {
        isFinished = true
        end = nil
        return waiter.take()
    }

    /// The consuming task was cancelled, or the iterator dropped: finish, and hand back the
    /// waiter (to resume with `nil`), the subscription (to dispose) and the buffered values.
    @inlinable
    mutating func cancel() -> Cancellation {
        isFinished = true
        end = nil
        let dropped = buffer
        buffer = Queue()
        return Cancellation(waiter: waiter.take(), subscription: subscription.take(), dropped: dropped)
    }
}
