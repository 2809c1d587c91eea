import Disposables
import Signals

/// A hot signal that is also a subscriber: what is sent to it goes to everyone subscribed now.
///
/// - Every current subscriber gets every event. One added while an event is being delivered does
///   not get that event; one removed during a delivery gets nothing after its removal.
/// - Sends from many threads are serialized with no lock held while subscribers run: the thread
///   that finds nobody delivering delivers, and a send made meanwhile (from another thread, or
///   from inside a subscriber) is queued and delivered after the current event, in order, to
///   every subscriber alike, by the delivering thread before its own send returns (or, past the
///   bound below, by the sender it hands the role to). A send that finds another thread
///   delivering returns at once, before its event is delivered, up to that bound.
///   **Departure:** RAC 2.5 delivers a reentrant send depth-first under a recursive lock; here no
///   subscriber callback runs under a lock.
/// - The queue is bounded, at K = 64 values of other threads. A send from a thread outside any
///   delivery that finds 64 values of other threads queued waits until its own value has been
///   delivered, as a RAC 2.5 sender waits for each subscriber's `@synchronized` lock. The
///   delivering thread delivers at most 64 values of other threads beyond its own while another
///   sender waits, then hands the delivering role to that sender. A send from inside a callback
///   never waits there and may go past the bound; its thread pays for it once outside every
///   delivery, before its outermost send returns, waiting as a plain sender at the bound would
///   until the queue is back within it (never inside a subscribe, a disposal or a deinit). The
///   delivering thread's own reentrant sends do not count. So memory stays bounded when senders
///   outpace the subscribers, forwarding from another signal's callback included, and a flood of
///   sends cannot keep one thread delivering forever. The one deadlock this keeps: a subscriber's
///   callback, on the delivering thread, waits for a thread that is blocked at the bound sending
///   to the same subject (directly, or from its callbacks). Otherwise a callback may wait for
///   another thread that sends to the same subject.
/// - Subscribing and disposing never wait and never deliver another subscription's events.
///   Once a subscription's `dispose()` has returned, none of its callbacks starts; one already
///   under way on the delivering thread may finish, and that thread lets go of the subscription
///   as the event ends.
/// - **Departure:** the terminal event reaches every subscriber once, and a subscriber that comes
///   later gets it at once (RAC 2.5's subject keeps no terminal state, so a late subscriber waits
///   forever). Sends after the terminal event are ignored.
/// - As a subscriber of other signals (`Signal.subscribe(_:)`), it keeps their subscriptions
///   only while they run, and disposes those still running when it is sent an error or completion.
///
/// ```swift
/// let subject = Subject<Int, Never>()
/// subject.subscribe(next: { print($0) })
/// subject.sendNext(1)       // prints 1
/// ```
///
/// A send costs four atomic operations (taking and leaving the delivering role, starting and ending
/// the walk of the subscribers) and a plain call per subscriber.
///
/// RAC 2.5: `RACSubject`, `+subject`.
public class Subject<Value, Failure: Error>: Signal<Value, Failure>, SubscriberProtocol, @unchecked Sendable {
    /// Where every event sent to the subject is serialized on its way to the subscribers.
    @usableFromInline let input: SerialInput<Value, Failure>

    /// A subject with no subscribers.
    ///
    /// RAC 2.5: `+subject`.
    public override convenience init() {
        self.init(broadcastingTo: BroadcastSink())
    }

    /// A subject that sends each event to the members of `observers`.
    init(broadcastingTo observers: BroadcastSink<Value, Failure>) {
        let input = SerialInput(observers)
        self.input = input
        super.init(producer: { sink in observers.add(sink) })
    }

    /// A subject whose new subscribers `observers` replays its kept values to, with `input`, the
    /// input of `observers`.
    @usableFromInline
    init(replaying observers: ReplaySink<Value, Failure>, input: SerialInput<Value, Failure>) {
        self.input = input
        super.init(producer: { sink in observers.subscribe(sink) })
    }

    deinit {
        // Nothing can send to the subject any more: its subscribers can go.
        input.releaseReceiver()
    }

    /// Sends `value` to every current subscriber; ignored after the terminal event.
    ///
    /// RAC 2.5: `-sendNext:`.
    public final func sendNext(_ value: Value) {
        input.sendNext(value)
    }

    /// Sends `error` to every subscriber and ends the subject: the subscriptions it holds to other
    /// signals are disposed first. Ignored after the terminal event.
    ///
    /// RAC 2.5: `-sendError:`.
    public final func sendError(_ error: Failure) {
        input.sendError(error)
    }

    /// Sends completion to every subscriber and ends the subject: the subscriptions it holds to
    /// other signals are disposed first. Ignored after the terminal event.
    ///
    /// RAC 2.5: `-sendCompleted`.
    public final func sendCompleted() {
        input.sendCompleted()
    }

    /// Keeps `disposable`, a subscription that sends to this subject, until it ends or the
    /// subject does; disposes it at once if the subject has ended.
    ///
    /// RAC 2.5: `-didSubscribeWithDisposable:`.
    public final func didSubscribe(with disposable: CompoundDisposable) {
        input.didSubscribe(with: disposable)
    }
}
