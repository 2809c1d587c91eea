import Dispatch
import Disposables
import Synchronization

/// The input of a subject: serializes the events sent to it, from any thread, with no lock held
/// while they are delivered.
///
/// A send either makes its thread the deliverer (nobody is delivering: one compare-and-swap), or
/// queues the event, and the deliverer delivers it after the events before it. So sends from many
/// threads are serialized; a send from inside a subscriber (of this subject or of any other) is
/// queued and delivered after the current event, in order; and no subscriber callback runs under
/// a lock, so a callback may wait for another thread that sends to the same subject. A send made
/// while another thread delivers returns before its event is delivered.
///
/// Only senders deliver: subscribing and disposing never touch the input (see ``Broadcast``).
///
/// **The bound.** A deliverer delivers at most ``bound`` events queued by other threads beyond
/// its own while another sender waits for the role, then hands the role to the first waiting
/// sender and returns. A sender outside any delivery that finds ``bound`` events of other threads
/// queued waits until its own event has been delivered (as RAC 2.5's `@synchronized` subscriber
/// waits), or until it is handed the role; so a fast producer can neither grow the queue without
/// limit nor keep one deliverer busy for ever. A sender inside a delivery never waits there (it
/// may exceed the bound): it owes the wait (``DeliveryDebt``) and settles it once its outermost
/// send is over (``settle()``), so a thread forwarding from another signal's callback adds at
/// most what one outermost delivery sends. The deliverer's own reentrant sends do not count. The
/// one deadlock this keeps: a deliverer's callback that waits for a thread blocked at the bound
/// sending to the same input, directly or from its callbacks.
///
/// A terminal event first disposes ``disposable`` (the subscriptions the subject holds to other
/// signals), then reaches the receiver; events after it are dropped.
@usableFromInline
package final class SerialInput<Value, Failure: Error>: DeliveryDebt, @unchecked Sendable {
    /// The subscriptions that send to this input; disposed by the terminal event.
    package let disposable = CompoundDisposable()
    /// Touched by the deliverer only.
    @exclusivity(unchecked) private var receiver: Retained<Sink<Value, Failure>>
    /// 1 while a thread holds the deliverer's role, plus 2 for each item queued: so a send finds
    /// the input idle and takes the role in one compare-and-swap from 0, and the deliverer leaves
    /// it in one from 1 when nothing is queued.
    private let state = Atomic<Int>(0)
    /// The ``DeliveryContext/id`` of the last thread to take the role: a send from that thread,
    /// inside a delivery, is reentrant.
    private let deliverer = Atomic<UInt>(0)
    /// What waits, in order, and the senders waiting at the bound. Its lock is never held around
    /// user code.
    ///
    /// The items are closures, not a generic enum of the events: the queue's type is then the
    /// same for every input, so an input costs no lookup of generic metadata when it is made,
    /// when it goes, or when an event waits; an event that waits costs the allocation of its
    /// closure's context instead.
    private let queue = Lock(InputQueue())
    /// Whether the terminal event has been delivered: later sends are dropped without queueing.
    private let hasEnded = Atomic<Bool>(false)
    private let contextKey = DeliveryContext.key

    /// K: how many events other threads may have queued before a sender outside any delivery
    /// waits, and how many of them a deliverer delivers beyond its own while a sender waits.
    package static var bound: Int { 64 }

    @usableFromInline
    package init(_ receiver: Sink<Value, Failure>) {
        self.receiver = Retained(receiver)
    }

    deinit {
        receiver.release()
    }

    /// The most events of other threads that were ever queued at once: within ``bound``, plus one
    /// for each sender waiting at the bound. For tests.
    package var highWaterMark: Int {
        queue.withLock { $0.highWaterMark }
    }

    /// Lets go of the receiver, once what is queued has been delivered: for the owner's `deinit`,
    /// when nothing can send to this input any more. Never waits: the deliverer under way, if any,
    /// does it after what it delivers.
    package func releaseReceiver() {
        run(waiting: false) { [self] in receiver.take(retiring: .current)?.inputReleased() }
    }

    /// Sends `value`, unless the input has ended.
    package func sendNext(_ value: Value) {
        if hasEnded.load(ordering: .relaxed) { return }
        if state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            let context = takeRole()
            deliverNext(value)
            leave(context, afterASend: true)
        } else {
            enqueueNext(value)
        }
    }

    /// Sends `error` and ends the input, unless it has ended.
    package func sendError(_ error: Failure) {
        if hasEnded.load(ordering: .relaxed) { return }
        run { [self] in end()?.receive(error: error) }
    }

    /// Sends completion and ends the input, unless it has ended.
    package func sendCompleted() {
        if hasEnded.load(ordering: .relaxed) { return }
        run { [self] in end()?.receiveCompleted() }
    }

    /// Keeps `subscription`, a subscription that sends to this input, until it ends or the input
    /// does; disposes it at once if the input has ended.
    package func didSubscribe(with subscription: CompoundDisposable) {
        disposable.addWhileRunning(subscription)
    }

    /// Runs `work` as the deliverer, in order with the events, as a send does: now when nobody
    /// delivers, else after what is queued. It runs even after the end, so it must check the
    /// state it acts on.
    ///
    /// - Parameter waiting: Whether the caller is a sender, which may wait at the ``bound``.
    package func run(waiting: Bool = true, _ work: @escaping () -> Void) {
        if state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            let context = takeRole()
            work()
            leave(context, afterASend: waiting)
        } else {
            enqueue(work, waiting: waiting)
        }
    }

    /// Records this thread as the deliverer, which it has become, and counts it as delivering.
    @inline(__always)
    private func takeRole() -> DeliveryContext {
        let context = DeliveryContext.current(in: contextKey)
        deliverer.store(context.id, ordering: .relaxed)
        context.depth += 1
        return context
    }

    /// As the deliverer, having delivered its own item: stops being the deliverer, or, when items
    /// wait, delivers them first. `afterASend`: whether the item was a send's, whose sender settles
    /// its debts once outside every delivery (see ``DeliveryDebt``).
    @inline(__always)
    private func leave(_ context: DeliveryContext, afterASend: Bool) {
        if state.compareExchange(expected: 1, desired: 0, ordering: .releasing).exchanged {
            context.depth -= 1
            if context.depth == 0, context.hasDeferred { context.runDeferred(afterASend: afterASend) }
            return
        }
        drain(context, afterASend: afterASend)
    }

    // Out of line, so that the hot path of `sendNext` builds no closure.

    @inline(never)
    private func enqueueNext(_ value: Value) {
        enqueue({ [self] in deliverNext(value) }, waiting: true)
    }

    /// Queues `work`, and delivers what is queued as the deliverer when nobody holds the role (it
    /// was let go of meanwhile); a sender outside any delivery that finds the bound reached waits
    /// for its work to be done, and a sender inside one owes that wait (see ``settle()``).
    @inline(never)
    private func enqueue(_ work: @escaping () -> Void, waiting: Bool) {
        let context = DeliveryContext.current(in: contextKey)
        var owesAWait = false
        let (becameDeliverer, waiter) = queue.withLock { queue -> (Bool, InputWaiter?) in
            let isReentrant = context.depth > 0 && deliverer.load(ordering: .relaxed) == context.id
            var waiter: InputWaiter?
            if !isReentrant {
                queue.foreignCount += 1
                queue.highWaterMark = max(queue.highWaterMark, queue.foreignCount)
            }
            // The count and the role in one step: a deliverer that let go of the role without
            // the lock (nothing was queued) did so before this, so the role is free, and taken
            // here; otherwise the deliverer will find this item.
            let before = state.add(2, ordering: .acquiringAndReleasing).oldValue
            if before & 1 == 0 {
                state.add(1, ordering: .relaxed)
                queue.items.append(QueuedWork(work: work, isForeign: !isReentrant, waiter: nil))
                return (true, nil)
            }
            if !isReentrant, waiting, queue.foreignCount > Self.bound {
                if context.depth == 0 {
                    waiter = InputWaiter(id: context.id)
                    queue.waiters.append(waiter!)
                } else {
                    owesAWait = true
                }
            }
            queue.items.append(QueuedWork(work: work, isForeign: !isReentrant, waiter: waiter))
            return (false, waiter)
        }
        if becameDeliverer {
            deliverer.store(context.id, ordering: .relaxed)
            context.depth += 1
            drain(context, afterASend: waiting)
        } else if let waiter {
            waiter.wait()
            if waiter.isHandedRole {
                context.depth += 1
                drain(context, afterASend: waiting)
            }
        } else if owesAWait {
            context.owe(self)
        }
    }

    /// Settles the wait a sender inside a delivery owes for sending beyond the ``bound`` (see
    /// ``DeliveryDebt``): outside every delivery now, it waits as a plain sender at the bound
    /// does, for an empty item queued behind the others (or until it is handed the role), when
    /// more than ``bound`` items of other threads are still queued.
    package func settle() {
        if hasEnded.load(ordering: .relaxed) || queue.withLock({ $0.foreignCount < Self.bound }) { return }
        enqueue({}, waiting: true)
    }

    /// As the deliverer: delivers what is queued, in order, until nothing is, or hands the role to
    /// a waiting sender once it has delivered ``bound`` items of other threads; then stops being
    /// the deliverer.
    @inline(never)
    private func drain(_ context: DeliveryContext, afterASend: Bool) {
        var delivered = 0
        while true {
            let next = queue.withLock { queue -> NextWork in
                if queue.items.isEmpty {
                    state.store(0, ordering: .releasing)
                    return .none
                }
                if delivered >= Self.bound, !queue.waiters.isEmpty {
                    let waiter = queue.waiters.removeFirst()
                    deliverer.store(waiter.id, ordering: .relaxed)
                    waiter.isHandedRole = true
                    return .handOver(waiter)
                }
                let item = queue.items.popFirst()!
                state.subtract(2, ordering: .relaxed)
                if item.isForeign { queue.foreignCount -= 1 }
                if let waiter = item.waiter, let index = queue.waiters.firstIndex(where: { $0 === waiter }) {
                    queue.waiters.remove(at: index)
                }
                return .run(item)
            }
            switch next {
            case .none:
                break
            case let .handOver(waiter):
                waiter.wake()
            case let .run(item):
                item.work()
                if item.isForeign { delivered += 1 }
                item.waiter?.wake()
                continue
            }
            context.depth -= 1
            if context.depth == 0, context.hasDeferred { context.runDeferred(afterASend: afterASend) }
            return
        }
    }

    private func deliverNext(_ value: Value) {
        if !hasEnded.load(ordering: .relaxed) {
            receiver.use { $0.receive(value) }
        }
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

/// What a ``SerialInput`` keeps under its lock. Not generic, so that locking it costs no metadata
/// lookup.
private struct InputQueue {
    var items = Queue<QueuedWork>()
    /// Senders waiting at the bound, in order.
    var waiters: [InputWaiter] = []
    /// How many of `items` other threads than the deliverer's queued.
    var foreignCount = 0
    var highWaterMark = 0
}

/// One queued event (or other work) of a ``SerialInput``.
private struct QueuedWork {
    let work: () -> Void
    /// Queued by another thread than the deliverer's, from outside its delivery.
    let isForeign: Bool
    /// The sender waiting for this work to be done, if any.
    let waiter: InputWaiter?
}

/// What the deliverer does next.
private enum NextWork {
    case none
    case handOver(InputWaiter)
    case run(QueuedWork)
}

/// A sender waiting at a ``SerialInput``'s bound: woken once its event has been delivered, or once
/// it has been handed the deliverer's role.
private final class InputWaiter: @unchecked Sendable {
    let id: UInt
    /// Set under the input's lock before the waiter is woken.
    var isHandedRole = false
    private let semaphore = DispatchSemaphore(value: 0)
    private let isWoken = Atomic<Bool>(false)

    init(id: UInt) {
        self.id = id
    }

    func wait() {
        semaphore.wait()
    }

    /// Wakes the waiter, once (a waiter handed the role delivers its own event, and wakes itself
    /// no more).
    func wake() {
        if !isWoken.exchange(true, ordering: .acquiringAndReleasing) { semaphore.signal() }
    }
}
