import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization

extension LazyList where Element: Sendable {
    /// A signal that sends the elements on a new background scheduler, one per scheduler step,
    /// then completes.
    ///
    /// RAC 2.5: `-signal`.
    public func signal() -> Signal<Element, Never> {
        signal(on: .background())
    }

    /// A signal that sends the elements on `scheduler`, one per step of
    /// `Scheduler.scheduleRecursive(_:)`, then completes. Each subscription walks the
    /// list from its head (what one evaluates, the next finds evaluated). Disposing the
    /// subscription stops the walk, and a subscriber that is disposed evaluates no further element.
    ///
    /// ```swift
    /// LazyList(1...3).signal(on: .immediate).subscribeNext { print($0) }   // 1, 2, 3
    /// ```
    ///
    /// On `Scheduler.immediate` the steps run in a loop on the subscribing thread, as
    /// `scheduleRecursive` runs them there.
    ///
    /// RAC 2.5: `-signalWithScheduler:`.
    @inlinable
    public func signal(on scheduler: Scheduler) -> Signal<Element, Never> {
        if scheduler === Scheduler.immediate {
            return Signal { subscriber in
                self.send(to: subscriber)
                return nil
            }
        }
        return Signal { subscriber in
            let cursor = Cursor(self)
            return scheduler.scheduleRecursive { reschedule in
                if subscriber.isDisposed { return }
                guard let element = cursor.iterator.next() else {
                    subscriber.sendCompleted()
                    return
                }
                subscriber.sendNext(element)
                reschedule()
            }
        }
    }

    /// Sends every element to `subscriber` in a loop, then completes, stopping early once it is
    /// disposed. From a node nothing has evaluated that reads a collection, the collection is
    /// walked directly (the elements are the same, and nothing is left to memoise for a list that
    /// is not evaluated). Runs of evaluated nodes are read as they are. Both are sent in bursts
    /// (``Signals/Subscriber/sendNexts(_:)``: the subscriber's delivery lock taken once for many
    /// elements); a node that must be evaluated is evaluated outside the lock (its block may run
    /// any code, or wait for another thread), and its head sent on its own.
    @inlinable
    func send(to subscriber: Subscriber<Element, Never>) {
        var node = self
        while !subscriber.isDisposed {
            if node.isEvaluated {
                // Up to the end or the first node not evaluated.
                let sent = subscriber.sendNexts { burst in
                    burst.send {
                        let bits = node.known.load(ordering: .acquiring)
                        guard bits & Known.all == Known.all, bits & Known.ended == 0 else { return nil }
                        let (head, tail) = node.evaluatedParts
                        node = tail
                        return head
                    }
                }
                guard sent else { return }
                // Stopped at the end, or at a node to evaluate (which another thread may have
                // evaluated meanwhile: the loop looks again).
                if node.known.load(ordering: .acquiring) & Known.ended != 0 {
                    subscriber.sendCompleted()
                    return
                }
                continue
            }
            if let walk = node.unevaluatedWalk() {
                if subscriber.sendNexts(walk) { subscriber.sendCompleted() }
                return
            }
            guard node.evaluate(nesting: 0) & Known.ended == 0 else {
                subscriber.sendCompleted()
                return
            }
            let (head, tail) = node.evaluatedParts
            subscriber.sendNext(head)
            node = tail
        }
    }
}

/// Where a scheduled walk stands. Only the walk's steps touch it, one after the other.
@usableFromInline
final class Cursor<Element>: @unchecked Sendable {
    @usableFromInline var iterator: LazyList<Element>.Iterator

    @inlinable
    init(_ list: LazyList<Element>) {
        iterator = list.makeIterator()
    }
}

extension Signal {
    /// A lazy list of the signal's values.
    ///
    /// The signal is subscribed once, now, and its values are buffered as they come. Pulling an
    /// element that has not arrived yet **blocks the pulling thread** until it arrives or the
    /// signal terminates, so do not pull on the thread the signal delivers on (for a signal that
    /// delivers on the main thread, the main thread) before its values have arrived. Completion
    /// ends the list; so does an error, which is otherwise dropped.
    ///
    /// The subscription lasts until the signal terminates or the list is released, whichever
    /// comes first: releasing every node of the list disposes it.
    ///
    /// ```swift
    /// Signal.return(1).concat(.return(2)).lazyList.array   // [1, 2]
    /// ```
    ///
    /// RAC 2.5: `-sequence` (`RACSignalSequence`).
    public var lazyList: LazyList<Value> {
        let buffer = SignalBuffer<Value>()
        let disposable = subscribe(
            next: { [weak buffer] value in buffer?.append(value) },
            error: { [weak buffer] _ in buffer?.finish() },
            completed: { [weak buffer] in buffer?.finish() }
        )
        buffer.hold(disposable)
        let stage = Stage<Value>("Signal.lazyList", dependency: nil) { upstream, stage, _ in
            let buffer = unsafeDowncast(upstream, to: SignalBuffer<Value>.self)
            guard let value = buffer.takeFirst() else { return nil }
            return (value, LazyList(stage: stage, upstream: buffer))
        }
        return LazyList(stage: stage, upstream: buffer)
    }
}

/// The values a signal has sent that no node of its list has taken yet.
///
/// Nodes take values in order, one each: a node exists only once the node before it has taken
/// its value.
private final class SignalBuffer<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Value] = []
    private var taken = 0
    private var finished = false
    private var subscription: Disposable?

    deinit {
        subscription?.dispose()
    }

    func append(_ value: Value) {
        condition.lock()
        values.append(value)
        condition.signal()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Keeps the subscription, to dispose it when the list is released.
    func hold(_ disposable: Disposable) {
        condition.lock()
        subscription = disposable
        condition.unlock()
    }

    /// The next value, waiting for it if it has not arrived; `nil` once the signal has terminated
    /// and every value has been taken.
    func takeFirst() -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while taken == values.count, !finished { condition.wait() }
        guard taken < values.count else { return nil }
        let value = values[taken]
        taken += 1
        if taken >= 1024, taken * 2 >= values.count {
            values.removeFirst(taken)
            taken = 0
        }
        return value
    }
}
