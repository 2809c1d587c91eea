import Disposables
import Schedulers
import Synchronization

extension Signal {
    /// A signal whose `block` runs once, on `scheduler`, when the first subscriber arrives; every
    /// subscriber, then or later, receives everything `block` sent, replayed.
    ///
    /// RAC 2.5: `+startLazilyWithScheduler:block:`.
    public static func startLazily(
        on scheduler: Scheduler,
        _ block: @escaping @Sendable (Subscriber<Value, Failure>) -> Void
    ) -> Signal {
        let replay = Replay<Value, Failure>(scheduler: scheduler, block: block)
        return Signal(producer: { sink in replay.add(sink) })
    }

    /// A signal whose `block` starts at once, on `scheduler`; every subscriber receives everything
    /// `block` sent, replayed, and what it sends later.
    ///
    /// RAC 2.5: `+startEagerlyWithScheduler:block:`.
    public static func startEagerly(
        on scheduler: Scheduler,
        _ block: @escaping @Sendable (Subscriber<Value, Failure>) -> Void
    ) -> Signal {
        let replay = Replay<Value, Failure>(scheduler: scheduler, block: block)
        replay.start()
        return Signal(producer: { sink in replay.add(sink) })
    }
}

/// Runs a block once and replays what it sent to every subscriber, in order.
private final class Replay<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    private struct State {
        var history: [Value] = []
        var terminal: Event<Value, Failure>?
        var observers = Bag<ReplayObserver<Value, Failure>>()
        var isStarted = false
    }

    private let scheduler: Scheduler
    private let block: @Sendable (Subscriber<Value, Failure>) -> Void
    private let state = Lock(State())

    init(scheduler: Scheduler, block: @escaping @Sendable (Subscriber<Value, Failure>) -> Void) {
        self.scheduler = scheduler
        self.block = block
        super.init()
    }

    /// Schedules the block, the first time only.
    func start() {
        let isFirst = state.withLock { state in
            defer { state.isStarted = true }
            return !state.isStarted
        }
        guard isFirst else { return }
        scheduler.schedule { [self] in block(Subscriber(self)) }
    }

    func add(_ sink: Sink<Value, Failure>) -> Disposable? {
        let observer = ReplayObserver(sink, in: self)
        sink.attach(observer)
        let scheduled = scheduler.schedule { [self] in
            let isLive = state.withLock { state in
                for value in state.history { observer.enqueue(.next(value)) }
                if let terminal = state.terminal {
                    observer.enqueue(terminal)
                    return false
                }
                // `dispose()` marks before it locks, so one it has not yet seen reads true here.
                if !observer.isDisposed { observer.token = state.observers.insert(observer) }
                return true
            }
            observer.flush()
            if isLive { start() }
        }
        observer.scheduled = scheduled
        return observer
    }

    func remove(_ observer: ReplayObserver<Value, Failure>) {
        let removed = state.withLock { state in
            observer.token.flatMap { state.observers.remove($0) }
        }
        _ = removed
    }

    package override func receive(_ value: Value) {
        broadcast(.next(value))
    }

    package override func receive(error: Failure) {
        broadcast(.error(error))
    }

    package override func receiveCompleted() {
        broadcast(.completed)
    }

    /// The block's subscriber was released without a terminal event: nothing will be sent again,
    /// so the subscribers let go of their sinks (a sink may hold, through its subscriber, the
    /// disposable that holds its observer). Later subscribers still get the values kept.
    package override func inputReleased() {
        let observers = state.withLock { state in
            defer { state.observers.removeAll() }
            return state.observers.elements
        }
        for observer in observers { observer.abandon() }
    }

    private func broadcast(_ event: Event<Value, Failure>) {
        let observers = state.withLock { state in
            switch event {
            case let .next(value): state.history.append(value)
            default: state.terminal = event
            }
            let observers = state.observers.elements
            for observer in observers { observer.enqueue(event) }
            if event.isFinished { state.observers.removeAll() }
            return observers
        }
        for observer in observers { observer.flush() }
    }
}

/// One subscriber of a replay: events are queued in order under the replay's lock and delivered
/// outside it, through the observer's own delivery lock, one thread at a time.
private final class ReplayObserver<Value, Failure: Error>: DeliveryLock, @unchecked Sendable {
    /// Touched only by the owner of this delivery lock.
    private var sink: Sink<Value, Failure>?
    private weak var replay: Replay<Value, Failure>?
    private let outbox = Lock(Queue<Event<Value, Failure>>())
    private let scheduledWork = Lock<Disposable?>(nil)
    /// Set once the replay's subscriber is gone: the sink goes once the outbox is empty.
    private let isAbandoned = Atomic<Bool>(false)
    /// Where the observer sits among the replay's; read and written under the replay's lock only.
    var token: Bag<ReplayObserver<Value, Failure>>.Token?

    init(_ sink: Sink<Value, Failure>, in replay: Replay<Value, Failure>) {
        self.sink = sink
        self.replay = replay
        super.init()
    }

    /// The scheduled subscription, disposed with this observer.
    var scheduled: Disposable? {
        get { scheduledWork.withLock { $0 } }
        set {
            let accepted = scheduledWork.withLock { slot in
                if isDisposed { return false }
                slot = newValue
                return true
            }
            if !accepted { newValue?.dispose() }
        }
    }

    func enqueue(_ event: Event<Value, Failure>) {
        outbox.withLock { $0.append(event) }
    }

    /// Delivers what is queued, without waiting: at once when nobody delivers to this observer,
    /// else by the thread delivering to it, after the event under way. (The subscription's
    /// scheduled replay and the block's sends both come here, and neither may wait for a callback.)
    func flush() {
        if runExclusivelyIfFree({ deliverQueued() }) { return }
        runExclusively { [self] in deliverQueued() }
    }

    private func deliverQueued() {
        while !isDisposed, let event = outbox.withLock({ $0.popFirst() }) {
            guard let sink else { continue }
            if event.isFinished {
                self.sink = nil
                markEnded()
            }
            sink.send(event)
        }
        if isDisposed {
            cancelSink()
        } else if isAbandoned.load(ordering: .acquiring), outbox.withLock({ $0.isEmpty }) {
            sink = nil
        }
    }

    private func cancelSink() {
        sink.take()?.cancel()
    }

    /// Lets go of the sink, without cancelling it, once what is queued has been delivered:
    /// nothing more will come. Never waits: whoever delivers what is queued lets go of it after.
    func abandon() {
        isAbandoned.store(true, ordering: .releasing)
        runExclusively { [self] in
            if outbox.withLock({ $0.isEmpty }) { sink = nil }
        }
    }

    /// Closes the observer, without waiting: its sink is cancelled and let go of at once when
    /// nobody delivers to it, else by the delivering thread after the event under way.
    override func dispose() {
        guard markDisposed() else { return }
        scheduledWork.withLock { slot in
            defer { slot = nil }
            return slot
        }?.dispose()
        replay?.remove(self)
        let dropped = outbox.withLock { outbox in
            defer { outbox.removeAll() }
            return outbox
        }
        _ = dropped
        runExclusively { [self] in cancelSink() }
    }
}
