import Dispatch
import Disposables
import Synchronization

/// Something whose deliveries a disposal must not overlap: the input of a hot signal, which a
/// ``BroadcastObserver`` quiesces before it lets go of its sink.
///
/// Its ``Settling/settle()`` is what a disposal that finds its subscription ended already waits
/// with: it returns once the delivery under way (the terminal event that ended it) is over, or at
/// once where this thread must not wait.
package protocol Quiescing: Settling {
    /// Runs `work` at once, as the only thread delivering, and returns `true`; or returns `false`
    /// without running it.
    func quiesceIfFree(_ work: () -> Void) -> Bool

    /// Runs `work` once no delivery is under way: now, or after the delivery under way.
    func quiesce(_ work: @escaping () -> Void)
}

extension DeliveryLock: Quiescing {}

/// The input of a subject: serializes the events sent to it, from any thread, with no lock held
/// while they are delivered.
///
/// A send either makes its thread the deliverer (nobody is delivering: one compare-and-swap), or
/// queues the event and returns at once, and the deliverer delivers it after the events before
/// it. So sends from many threads are serialized and never wait; a send from inside a subscriber
/// (of this subject or of any other) is queued and delivered after the current event, in order;
/// and no subscriber callback runs under a lock, so a callback may wait for another thread that
/// sends to the same subject. The price, as with any serial queue: a send made while another
/// thread delivers returns before its event is delivered, and the deliverer delivers what others
/// queue meanwhile before its own send returns.
///
/// A terminal event first disposes ``disposable`` (the subscriptions the subject holds to other
/// signals), then reaches the receiver; events after it are dropped.
@usableFromInline
package final class SerialInput<Value, Failure: Error>: Quiescing, @unchecked Sendable {
    /// The subscriptions that send to this input; disposed by the terminal event.
    package let disposable = CompoundDisposable()
    /// Touched by the deliverer only.
    @exclusivity(unchecked) private var receiver: Retained<Sink<Value, Failure>>
    /// How many events (or pieces of work) are being delivered or wait: the one who raises it
    /// from 0 delivers until it is 0 again.
    private let tickets = Atomic<Int>(0)
    /// What waits, first in first out, each item with its ticket: the delivery of an event, or
    /// other work to run as the deliverer.
    ///
    /// Closures, not a generic enum of the events: the queue's type is then the same for every
    /// input, so the code that makes, fills, empties and destroys it is compiled once, for that
    /// type, and an input costs no lookup of generic metadata (`Lock<Queue<Item<Value, Failure>>>`
    /// and its parts) when it is made, when it goes, or when an event waits. An event that waits
    /// costs the allocation of its closure's context instead.
    private let queue = Lock(Queue<() -> Void>())
    /// Whether the terminal event has been delivered: later sends are dropped without queueing.
    private let hasEnded = Atomic<Bool>(false)
    private let contextKey = DeliveryContext.key

    @usableFromInline
    package init(_ receiver: Sink<Value, Failure>) {
        self.receiver = Retained(receiver)
    }

    deinit {
        receiver.release()
    }

    /// Lets go of the receiver, once what is queued has been delivered: for the owner's `deinit`,
    /// when nothing can send to this input any more. The receiver's subscribers reference this
    /// input (to quiesce it when they are disposed), so without this the two would keep each
    /// other alive.
    package func releaseReceiver() {
        run { [self] in receiver.take(retiring: .current)?.inputReleased() }
    }

    /// Sends `value`, unless the input has ended.
    package func sendNext(_ value: Value) {
        if hasEnded.load(ordering: .relaxed) { return }
        if tickets.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
            let context = DeliveryContext.current(in: contextKey)
            context.depth += 1
            deliverNext(value)
            drain(context)
        } else {
            enqueueNext(value)
        }
    }

    /// Sends `error` and ends the input, unless it has ended.
    package func sendError(_ error: Failure) {
        if hasEnded.load(ordering: .relaxed) { return }
        // As `sendNext`: delivered at once by a thread that becomes the deliverer, else queued.
        if !quiesceIfFree({ end()?.receive(error: error) }) { enqueueError(error) }
    }

    /// Sends completion and ends the input, unless it has ended.
    package func sendCompleted() {
        if hasEnded.load(ordering: .relaxed) { return }
        if !quiesceIfFree({ end()?.receiveCompleted() }) { enqueueCompleted() }
    }

    /// Keeps `subscription`, a subscription that sends to this input, until it ends or the input
    /// does; disposes it at once if the input has ended.
    package func didSubscribe(with subscription: CompoundDisposable) {
        disposable.addWhileRunning(subscription)
    }

    /// Runs `work` as the deliverer, in order with the events: now when nobody delivers, else
    /// after what is queued. It runs even after the end, so it must check the state it acts on.
    package func run(_ work: @escaping () -> Void) {
        if !quiesceIfFree(work) { enqueue(work) }
    }

    /// Runs `work` as the deliverer. From a thread that is not delivering anything, waits until it
    /// has run, so that a disposal from another thread returns after the callback under way.
    package func quiesce(_ work: @escaping () -> Void) {
        if quiesceIfFree(work) { return }
        guard DeliveryContext.current(in: contextKey).depth == 0 else { return enqueue(work) }
        let finished = DispatchSemaphore(value: 0)
        run {
            work()
            finished.signal()
        }
        finished.wait()
    }

    /// Waits until the delivery under way on another thread, and what is queued before this call,
    /// has been delivered; returns at once when nobody delivers, and when this thread is inside a
    /// delivery (this input's or another's), where it must not wait. `quiesce {}` without the
    /// empty work it would queue for a thread inside a delivery, which nothing waits for.
    package func settle() {
        if quiesceIfFree({}) { return }
        guard DeliveryContext.current(in: contextKey).depth == 0 else { return }
        quiesce {}
    }

    /// Runs `work` as the deliverer and returns `true` when nobody is delivering; else `false`.
    package func quiesceIfFree(_ work: () -> Void) -> Bool {
        guard tickets.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else {
            return false
        }
        let context = DeliveryContext.current(in: contextKey)
        context.depth += 1
        work()
        drain(context)
        return true
    }

    // Out of line, so that the hot paths of the sends build no closure.

    @inline(never)
    private func enqueueNext(_ value: Value) {
        enqueue { [self] in deliverNext(value) }
    }

    @inline(never)
    private func enqueueError(_ error: Failure) {
        enqueue { [self] in end()?.receive(error: error) }
    }

    @inline(never)
    private func enqueueCompleted() {
        enqueue { [self] in end()?.receiveCompleted() }
    }

    /// Queues `item` and takes its ticket, in one step: so no ticket is ever free while an item
    /// waits without one, and the compare-and-swap of ``sendNext(_:)`` (from 0) can only succeed
    /// with nothing queued, which keeps each thread's events in order. Delivers if that makes this
    /// thread the deliverer.
    @inline(never)
    private func enqueue(_ item: @escaping () -> Void) {
        let previous = queue.withLock { queue -> Int in
            queue.append(item)
            return tickets.add(1, ordering: .acquiringAndReleasing).oldValue
        }
        guard previous == 0 else { return }
        let context = DeliveryContext.current(in: contextKey)
        context.depth += 1
        deliverQueued()
        drain(context)
    }

    /// As the deliverer, having handled one ticket's item: handles the rest, then stops being the
    /// deliverer.
    @inline(__always)
    private func drain(_ context: DeliveryContext) {
        while tickets.subtract(1, ordering: .acquiringAndReleasing).newValue > 0 {
            deliverQueued()
        }
        context.depth -= 1
        if context.depth == 0, context.hasDeferred { context.runDeferred() }
    }

    private func deliverNext(_ value: Value) {
        if !hasEnded.load(ordering: .relaxed) {
            receiver.use { $0.receive(value) }
        }
    }

    /// Delivers the first queued item; there is one for each ticket.
    @inline(never)
    private func deliverQueued() {
        guard let item = queue.withLock({ $0.popFirst() }) else {
            preconditionFailure("SerialInput: a ticket with no queued item")
        }
        item()
    }

    /// Marks the end and disposes the subscriptions kept; returns the receiver to send the
    /// terminal event to, unless the input had ended already.
    private func end() -> Sink<Value, Failure>? {
        if hasEnded.load(ordering: .relaxed) { return nil }
        hasEnded.store(true, ordering: .releasing)
        disposable.dispose()
        return receiver.take(retiring: .current)
    }
}
