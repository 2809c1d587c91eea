import Disposables
import Synchronization

extension Signal {
    /// A signal whose every subscription subscribes to this signal, then calls `connect`; once no
    /// subscription is running any more (each ended by disposal or by a terminal event), the
    /// disposable the last `connect` returned is disposed. What `autoconnect()` is built on.
    package func refCounted(connect: @escaping @Sendable () -> Disposable) -> Signal {
        let count = SubscriptionCount()
        // Looked up once: allocating through it costs no metadata lookup per subscription.
        let sinkType = CountedSink<Value, Failure>.self
        return Signal(producer: { downstream in
            count.increment()
            let sink = sinkType.init(downstream, count: count)
            let subscription = self.attachSink(sink)
            sink.connected(connect(), subscription: subscription)
            return sink
        })
    }
}

/// What a ``CountedSink`` counts itself out of, once, when its subscription ends (by disposal or
/// by a terminal event), once it is connected.
package protocol SubscriptionCounting: AnyObject, Sendable {
    /// Counts one subscription out; `connection` is the disposable it was connected with. Called
    /// on the thread that ends the subscription, with no lock held.
    func countOut(_ connection: Disposable)
}

/// How many subscriptions of a ``Signal/refCounted(connect:)`` run.
private final class SubscriptionCount: SubscriptionCounting {
    private let value = Atomic<Int>(0)

    func increment() {
        value.add(1, ordering: .acquiringAndReleasing)
    }

    /// The last subscription out disposes the connection.
    func countOut(_ connection: Disposable) {
        if value.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { connection.dispose() }
    }
}

/// One subscription of a ``Signal/refCounted(connect:)`` (or of `share(replay:)`'s connection):
/// passes the events on, stands for the subscription downstream, and counts itself out of its
/// ``SubscriptionCounting`` once when it ends, if it was connected.
package final class CountedSink<Value, Failure: Error>: Sink<Value, Failure>, @unchecked Sendable {
    /// Called through, with no retain, and emptied by the subject's delivery only (see
    /// ``Retained``); let go of when that subject is released, since this sink is also the
    /// disposable handed downstream, which its subscriber may keep.
    @exclusivity(unchecked) private var downstream: Retained<Sink<Value, Failure>>
    private let count: any SubscriptionCounting
    private let state = Lock(CountedState())

    package required init(_ downstream: Sink<Value, Failure>, count: any SubscriptionCounting) {
        self.downstream = Retained(downstream)
        self.count = count
        super.init()
    }

    deinit {
        downstream.release()
    }

    /// Keeps the connection; counts out at once when the subscription has already ended.
    /// `subscription` is what attaching this sink upstream returned.
    package func connected(_ connection: Disposable, subscription: Disposable?) {
        let countsOut = state.withLock { state -> Bool in
            state.connection = connection
            if state.upstream == nil { state.upstream = subscription }
            return (isDisposed || subscription == nil) && state.countOut()
        }
        if countsOut { count.countOut(connection) }
    }

    package override func attach(_ upstream: Disposable) {
        let accepted = state.withLock { state -> Bool in
            // `end()` marks before it locks, so an attach it has not yet seen reads true here.
            if isDisposed { return false }
            state.upstream = upstream
            return true
        }
        if !accepted { upstream.dispose() }
        downstream.use { $0.attach(self) }
    }

    package override func receive(_ value: Value) {
        downstream.use { $0.receive(value) }
    }

    package override func receive(error: Failure) {
        markEnded()
        downstream.take(retiring: .current)?.receive(error: error)
        end()
    }

    package override func receiveCompleted() {
        markEnded()
        downstream.take(retiring: .current)?.receiveCompleted()
        end()
    }

    package override func cancel() {
        downstream.use { $0.cancel() }
    }

    package override func inputReleased() {
        _ = downstream.take(retiring: .current)
    }

    package override func dispose() {
        guard markDisposed() else { return }
        end()
    }

    /// Disposes the upstream subscription and, once connected, counts out.
    private func end() {
        let (upstream, connection) = state.withLock { state in
            (state.upstream.take(), state.countOut() ? state.connection : nil)
        }
        upstream?.dispose()
        if let connection { count.countOut(connection) }
    }
}

/// What a ``CountedSink`` holds, under its lock. Not generic, so locking it costs no metadata
/// lookup.
private struct CountedState {
    var upstream: Disposable?
    var connection: Disposable?
    var isCountedOut = false

    /// Whether counting out falls to the caller now: connected, and not counted out yet.
    mutating func countOut() -> Bool {
        guard connection != nil, !isCountedOut else { return false }
        isCountedOut = true
        return true
    }
}
