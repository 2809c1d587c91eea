import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization

/// One round of one row in one cell: makes the source, subscribes in the context, ends the
/// subscription the cell's way, then checks the events and that everything was freed.
///
/// The round keeps what it made in `held` and hands it to the context's blocks through it, so
/// that letting go (mode (c)) really leaves nothing behind: no block and no local variable of
/// the engine keeps the source, the signal, the disposable or the subscriber's closures.
final class MatrixRound<
    SourceFailure: Error & Sendable,
    Value: Equatable & Sendable,
    Failure: Error & Equatable & Sendable
>: @unchecked Sendable {
    typealias Transform = @Sendable (Signal<Int, SourceFailure>) -> Signal<Value, Failure>

    private let transform: Transform
    private let expected: [Event<Value, Failure>]?
    private let cell: MatrixCell
    /// Whether the expected terminal event comes only once the round lets go of the row.
    private let endsOnlyWhenLetGo: Bool
    /// Whether the row subscribes to its source from the main queue when made elsewhere.
    private let subscribesOnTheMainQueue: Bool
    private let probe = MatrixProbe<Value, Failure>()
    private let held = Lock(Held())
    /// Everything that must be freed by the end of the round, by name.
    private let tracked = Lock<[(name: String, isAlive: @Sendable () -> Bool)]>([])
    private let closuresAreAlive: @Sendable () -> Bool
    private let closuresFreed = DispatchSemaphore(value: 0)
    /// Set once the source has sent everything (for the synchronous source, the first time its
    /// create block runs): only then may the virtual clocks move on, or a row's timer (a
    /// throttle, a timeout) would fire between two of its values.
    private let sourceHasSent = MatrixFlag()

    private struct Held {
        var source: Signal<Int, SourceFailure>?
        var input: Subscriber<Int, SourceFailure>?
        var signal: Signal<Value, Failure>?
        /// What modes (a) and (b) dispose: the subscriber's disposable or what `subscribe` returned.
        var target: Disposable?
        /// What mode (d4) lets go of: a `ScopedDisposable` of the target, or an owner holding one.
        var scoped: (AnyObject & Sendable)?
        /// For the subscriber's closures to capture; taken out when they are made.
        var token: MatrixLifetime?
        /// Whether making the signal under test asked for `ThreadMatrix.queue`.
        var usesQueue = false
        /// In the blocking modes, the send of one more value into the hot source while the
        /// callback blocks.
        var oneMoreSend: MatrixPending?
    }

    /// How the events are compared with the expected ones.
    private enum Expectation: Equatable {
        case exact, prefix, first
        /// The expected events up to the blocked one, which is at this index (the blocking modes).
        case throughBlocked(Int)
    }

    init(_ transform: @escaping Transform, expected: [Event<Value, Failure>]?, cell: MatrixCell, traits: MatrixRow.Traits) {
        self.transform = transform
        self.expected = expected
        self.cell = cell
        endsOnlyWhenLetGo = traits.endsOnlyWhenLetGo
        subscribesOnTheMainQueue = traits.subscribesOnTheMainQueue
        let token = MatrixLifetime(signalling: closuresFreed)
        let reference = WeakReference(token)
        closuresAreAlive = { reference.isAlive }
        held.withLock { $0.token = token }
        track("the subscriber's closures", reference)
    }

    func run() -> String? {
        makeSource()
        switch cell.mode {
        case .disposedFromAnotherThread: return runDisposedFromAnotherThread()
        case .disposedInsideCallback: return runDisposedInsideCallback()
        case .letGo: return runLetGo()
        case .blockedDisposedFromAnotherThread, .blockedDisposedInsideAnotherCallback, .blockedLastReferenceReleased:
            return runBlockedDisposedFromAWorker()
        case .blockedDisposedFromTheMainThread:
            return runBlockedDisposedFromTheMainThread()
        }
    }

    // MARK: The modes

    private func runDisposedFromAnotherThread() -> String? {
        let started = MatrixFlag()
        let isSynchronous = cell.source == .synchronous
        let disposed = DispatchSemaphore(value: 0)
        let foundTarget = MatrixFlag()
        MatrixThreads.disposer.async { [self] in
            defer { disposed.signal() }
            guard MatrixWait.spin(until: { started.isSet }) else { return }
            var target: Disposable?
            guard MatrixWait.spin(until: {
                target = held.withLock { $0.target }
                return target != nil
            }) else { return }
            foundTarget.set()
            target?.dispose()
            probe.markDisposeReturned()
        }
        // The disposing thread spins until `started`: as the synchronous source is subscribed,
        // or as the first value goes into the hot one.
        guard runInContext({ [self] in
            if isSynchronous {
                subscribe(keepingTarget: true, selfDisposing: false, started: started)
            } else {
                subscribe(keepingTarget: true, selfDisposing: false, started: nil)
                letTheSubscriptionSettle()
                send(started: started)
            }
        }) else { return hang(isSynchronous ? "subscribe" : "subscribe and send") }
        guard MatrixWait.for(disposed) else {
            MatrixThreads.replace(MatrixThreads.disposer)
            return "dispose() from another thread did not return within \(MatrixWait.limit) s"
        }
        guard foundTarget.isSet else { return "the disposing thread never saw the disposable" }
        return finish(.prefix)
    }

    private func runDisposedInsideCallback() -> String? {
        guard runInContext({ [self] in
            subscribe(keepingTarget: true, selfDisposing: true, started: nil)
            if cell.source == .hot {
                letTheSubscriptionSettle()
                send(started: nil)
            }
        }) else { return hang("subscribe and send") }
        // Where events are expected (or may come: `nil`), wait for the first callback, so that
        // nothing here races its disposal.
        if expected?.isEmpty != true {
            _ = MatrixWait.until({ probe.callbackHasReturned }, wake: probe.wake, between: advance)
        } else {
            // Nothing should come: give anything that would a chance to show.
            _ = MatrixWait.until({ sourceHasSent.isSet }, between: advance)
            ThreadMatrix.settle()
        }
        if !probe.disposeHasReturned {
            // No event came to dispose from: end the subscription here.
            held.withLock { $0.target }?.dispose()
            probe.markDisposeReturned()
        }
        return finish(.first)
    }

    private func runLetGo() -> String? {
        guard runInContext({ [self] in
            subscribe(keepingTarget: false, selfDisposing: false, started: nil)
            if cell.source == .hot {
                letTheSubscriptionSettle()
                send(started: nil)
            }
            letGo()
        }) else { return hang("subscribe, send and let go") }
        return finish(.exact)
    }

    /// Runs `block` in the cell's context: here, when the whole cell already runs there.
    private func runInContext(_ block: @escaping @Sendable () -> Void) -> Bool {
        if cell.runsInItsContext {
            block()
            return true
        }
        return cell.context.run(block)
    }

    private func hang(_ work: String) -> String {
        "the context's block (\(work)) did not return within \(MatrixWait.limit) s"
    }

    // MARK: Steps

    private func makeSource() {
        switch cell.source {
        case .synchronous:
            let (signal, token) = trackingLifetime { token in
                Signal<Int, SourceFailure> { [sourceHasSent] subscriber in
                    withExtendedLifetime(token) {}
                    for value in ThreadMatrix.sourceValues { subscriber.sendNext(value) }
                    subscriber.sendCompleted()
                    sourceHasSent.set()
                    return nil
                }
            }
            track("the source's create block", token)
            held.withLock { $0.source = signal }
        case .hot:
            let (signal, input) = Signal<Int, SourceFailure>.pipe()
            track("the pipe", WeakReference(signal))
            track("the pipe's input", WeakReference(input))
            held.withLock {
                $0.source = signal
                $0.input = input
            }
        }
    }

    /// Makes the signal under test and subscribes to it; runs in the context.
    ///
    /// With a `blocker` (the blocking modes), the callback of the event it names blocks as it says; in mode (d4)
    /// the target goes into a `ScopedDisposable` (in an owner, in some rounds) rather than into
    /// `held.target`, so that letting go of that is letting go of the last reference.
    private func subscribe(keepingTarget: Bool, selfDisposing: Bool, started: MatrixFlag?, blocker: MatrixBlocker? = nil) {
        let (source, token) = held.withLock { ($0.source!, $0.token.take()!) }
        let queueUses = ThreadMatrix.queueUses.load(ordering: .relaxed)
        let signal = transform(source)
        let usesQueue = ThreadMatrix.queueUses.load(ordering: .relaxed) != queueUses
        track("the signal under test", WeakReference(signal))
        held.withLock {
            $0.signal = signal
            $0.usesQueue = usesQueue
        }
        // Where `subscribe(next:)` delivers before it returns, its disposable does not exist yet:
        // a blocked callback there could not be disposed.
        let marker = blocker != nil && !cell.usesSubscriber ? MatrixSubscribeMarker() : nil
        let callbacks = MatrixCallbacks(
            probe: probe, token: token, disposingItsSubscription: selfDisposing, blocker: blocker, insideSubscribe: marker
        )
        let scoping = cell.mode == .blockedLastReferenceReleased
        if cell.usesSubscriber {
            let subscriber = Subscriber<Value, Failure>(next: callbacks.next, error: callbacks.error, completed: callbacks.completed)
            callbacks.ownSubscription?.disposable = subscriber.disposable
            if keepingTarget { held.withLock { $0.target = subscriber.disposable } }
            if scoping { keepScoped(subscriber.disposable) }
            started?.set()
            signal.subscribe(subscriber)
        } else {
            started?.set()
            marker?.enter()
            let subscription = signal.subscribe(next: callbacks.next, error: callbacks.error, completed: callbacks.completed)
            if keepingTarget { held.withLock { $0.target = subscription } }
            if scoping { keepScoped(subscription) }
            marker?.leave()
        }
    }

    /// Keeps `subscription` in a `ScopedDisposable`, or in an owner object holding one, as the
    /// only reference to that, for mode (d4) to let go of.
    ///
    /// Made inside the lock through which the disposing thread takes it: a reference that this
    /// thread still held once it was stored (a local, released as the function returns) would
    /// make the disposing thread's release not the last, and the disposal come later, here.
    private func keepScoped(_ subscription: Disposable) {
        let owned = cell.takesTheVariant
        held.withLock { held in
            let scoped: AnyObject & Sendable = owned ? SubscriptionHolder.Owner(subscription) : subscription.asScoped()
            track(owned ? "the owner of the ScopedDisposable" : "the ScopedDisposable", WeakReference(scoped))
            held.scoped = scoped
        }
    }

    /// Lets what subscribing put on other schedulers run, so that the hot source's values all
    /// reach the subscription: a created signal subscribed where no scheduler is current goes
    /// through the subscription scheduler's background queue, a row may subscribe on
    /// `ThreadMatrix.queue`, and one may subscribe from the main queue. Runs in the context,
    /// after `subscribe`.
    private func letTheSubscriptionSettle() {
        let offScheduler = Scheduler.current == nil
        let drained = DispatchSemaphore(value: 0)
        let drainSubscriptions = {
            // Here, with no current scheduler, this goes to the back of that background queue.
            Scheduler.subscription.schedule { drained.signal() }
            _ = MatrixWait.for(drained)
        }
        if offScheduler { drainSubscriptions() }
        if held.withLock({ $0.usesQueue }) {
            // Twice: a block there may queue another (`startLazily` starts from its first block).
            for _ in 0..<2 {
                ThreadMatrix.rowQueue.schedule { drained.signal() }
                _ = MatrixWait.for(drained)
                if offScheduler { drainSubscriptions() }
            }
        }
        // The main thread runs its queue while it waits for the context (on the main thread and
        // in the test scheduler's block, which is the main thread too, such a row subscribes at
        // once).
        if subscribesOnTheMainQueue, !Thread.isMainThread {
            DispatchQueue.main.async { drained.signal() }
            _ = MatrixWait.for(drained)
        }
    }

    /// Sends the source values into the hot source; runs in the context.
    private func send(started: MatrixFlag?) {
        guard let input = held.withLock({ $0.input }) else { return }
        started?.set()
        for value in ThreadMatrix.sourceValues { input.sendNext(value) }
        sourceHasSent.set()
    }

    /// Moves the virtual clocks on, once the source has sent everything or the subscription was
    /// disposed; runs the main queue in any case.
    private func advance() {
        if sourceHasSent.isSet || probe.disposeHasReturned {
            ThreadMatrix.advance()
        } else {
            MatrixWait.runMainLoopOnce()
        }
    }

    /// Lets go of the source, its input, the signal under test and the disposable.
    private func letGo() {
        let released = held.withLock { held in
            let released = held
            held = Held()
            return released
        }
        withExtendedLifetime(released) {}
    }

    private func track(_ name: String, _ reference: WeakReference<some AnyObject>) {
        tracked.withLock { $0.append((name, { reference.isAlive })) }
    }

    // MARK: Checks

    /// Waits for the subscriber's closures to go (in modes (a) and (b), while the source and the
    /// disposable are still held), lets go of everything, waits for the rest to go, then compares
    /// the events with the expected ones.
    ///
    /// `lateAllowed` is how many events may start after `dispose()` returned: one (the one past
    /// the final check), or none where the callback past it was blocked until then.
    private func finish(_ expectation: Expectation, lateAllowed: Int = 1) -> String? {
        var problems: [String] = []
        if cell.mode != .letGo,
           !MatrixWait.until({ !closuresAreAlive() }, wake: closuresFreed, between: advance) {
            problems.append("the subscriber's closures outlived dispose() by \(MatrixWait.limit) s (source and disposable still held)")
        }
        letGo()
        let tracked = tracked.withLock { $0 }
        if !MatrixWait.until({ !tracked.contains { $0.isAlive() } }, wake: closuresFreed, between: advance) {
            let alive = tracked.filter { $0.isAlive() }.map(\.name)
            problems.append("still alive \(MatrixWait.limit) s after the round was let go of: \(alive.joined(separator: ", "))")
        }
        problems += probe.problems
        let events = probe.events
        // `dispose()` never waits: the one event whose callback had passed the final disposal
        // check when it was called may start after it returned (callbacks are serialized, so
        // there is at most one). A second one is a callback that passed the check late.
        let late = events.dropFirst(probe.eventsBeforeDispose)
        if late.count > lateAllowed {
            problems.append(lateAllowed == 0
                ? "\(Array(late)) started after dispose() returned, while the callback past the final check was blocked until it had"
                : "\(Array(late)) started after dispose() returned (one may, past the final check)")
        }
        if let expected {
            switch expectation {
            case .exact where events != expected:
                problems.append("got \(events), expected \(expected)")
            case .prefix where !expected.starts(with: events):
                problems.append("got \(events), expected a prefix of \(expected)")
            case .first where events != Array(expected.prefix(1)):
                problems.append("got \(events), expected only the first event of \(expected)")
            case let .throughBlocked(index) where events != Array(expected.prefix(index + 1)):
                problems.append("got \(events), expected the first \(index + 1) event(s) of \(expected), the last of them blocked until dispose() returned")
            default:
                break
            }
        } else if expectation == .first, events.count > 1 {
            problems.append("got \(events) after disposing inside the first callback")
        } else if case let .throughBlocked(index) = expectation, events.count > index + 1 {
            problems.append("got \(events), though the callback of event \(index + 1) was blocked until dispose() returned")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }
}

/// An object for the subscriber's closures to capture, which signals when it is freed.
final class MatrixLifetime: Sendable {
    private let freed: DispatchSemaphore

    init(signalling freed: DispatchSemaphore) {
        self.freed = freed
    }

    deinit {
        freed.signal()
    }
}

/// What a round's subscriber saw, and what went wrong as it saw it.
final class MatrixProbe<Value: Sendable, Failure: Error & Sendable>: @unchecked Sendable {
    private struct State {
        var events: [Event<Value, Failure>] = []
        var problems: [String] = []
        /// How many events had started when `dispose()` returned.
        var eventsBeforeDispose: Int?
        var isTerminated = false
        var callbackHasReturned = false
    }

    private let state = Lock(State())
    private let callbacksRunning = Atomic<Int>(0)
    /// Signalled each time a callback returns.
    let wake = DispatchSemaphore(value: 0)

    var events: [Event<Value, Failure>] { state.withLock { $0.events } }
    var problems: [String] { state.withLock { $0.problems } }
    var disposeHasReturned: Bool { state.withLock { $0.eventsBeforeDispose != nil } }
    var eventsBeforeDispose: Int { state.withLock { $0.eventsBeforeDispose ?? $0.events.count } }
    var callbackHasReturned: Bool { state.withLock { $0.callbackHasReturned } }

    /// A callback starts with `event`. Returns its index: 0 for the first event.
    func begin(_ event: Event<Value, Failure>) -> Int {
        let overlapping = callbacksRunning.add(1, ordering: .acquiringAndReleasing).oldValue != 0
        return state.withLock { state in
            if overlapping { state.problems.append("\(event) started while another callback ran") }
            if state.isTerminated { state.problems.append("\(event) after the terminal event") }
            if event.isFinished { state.isTerminated = true }
            state.events.append(event)
            return state.events.count - 1
        }
    }

    /// The callback returns.
    func end() {
        callbacksRunning.subtract(1, ordering: .acquiringAndReleasing)
        state.withLock { $0.callbackHasReturned = true }
        wake.signal()
    }

    /// `dispose()` has returned: every event from now on is late.
    func markDisposeReturned() {
        state.withLock { state in
            if state.eventsBeforeDispose == nil { state.eventsBeforeDispose = state.events.count }
        }
    }
}

/// The subscriber's closures: they record into the probe, keep the round's token alive, in
/// mode (b) dispose their own subscription inside the first callback, and in the blocking modes
/// block in one callback as the round's `MatrixBlocker` says.
struct MatrixCallbacks<Value: Sendable, Failure: Error & Sendable>: Sendable {
    let next: @Sendable (Value) -> Void
    let error: @Sendable (Failure) -> Void
    let completed: @Sendable () -> Void
    /// Where the closures find their own subscription's disposable, in mode (b).
    let ownSubscription: WeakDisposableBox?

    /// - Parameters:
    ///   - blocker: In the blocking modes, what the blocked callback blocks on.
    ///   - insideSubscribe: Tells whether the callback runs inside the `subscribe(next:)` call
    ///     whose disposable it would be disposed through.
    init(
        probe: MatrixProbe<Value, Failure>,
        token: MatrixLifetime,
        disposingItsSubscription: Bool,
        blocker: MatrixBlocker? = nil,
        insideSubscribe: MatrixSubscribeMarker? = nil
    ) {
        let ownSubscription = disposingItsSubscription ? WeakDisposableBox() : nil
        self.ownSubscription = ownSubscription
        let receive: @Sendable (Event<Value, Failure>) -> Void = { event in
            withExtendedLifetime(token) {}
            let index = probe.begin(event)
            if index == 0, let ownSubscription {
                ownSubscription.disposable?.dispose()
                probe.markDisposeReturned()
            }
            if let blocker, index == blocker.blockedIndex {
                blocker.blockCallback(insideSubscribe: insideSubscribe?.isInsideOnThisThread ?? false)
            }
            probe.end()
        }
        next = { receive(.next($0)) }
        error = { receive(.error($0)) }
        completed = { receive(.completed) }
    }
}

/// A weak reference to a disposable, for a subscriber's closures to reach their own subscription
/// without keeping it (and so themselves) alive.
final class WeakDisposableBox: @unchecked Sendable {
    private struct Slot {
        weak var disposable: Disposable?
    }

    private let slot = Lock(Slot())

    var disposable: Disposable? {
        get { slot.withLock { $0.disposable } }
        set { slot.withLock { $0.disposable = newValue } }
    }
}

/// A flag one thread sets and another waits for.
final class MatrixFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}

// MARK: - The blocking modes (d1)-(d4)

extension MatrixRound {
    /// (d1), (d3), (d4): a plain thread (the matrix's disposing worker) disposes while a callback
    /// blocks until that has returned: with `dispose()` (d1), with `dispose()` inside
    /// the callback of another, unrelated subscription that the worker delivers (d3), or by
    /// letting go of the last reference to a `ScopedDisposable` or its owner (d4).
    private func runBlockedDisposedFromAWorker() -> String? {
        guard expected?.isEmpty != true else { return noCallbackToBlock() }
        let mode = cell.mode
        let blocker = MatrixBlocker(mode: mode, blocking: blockedIndex)
        let disposed = MatrixPending()
        let worker = MatrixThreads.disposer
        // (d3): rounds 2 and 3 of every 4 reach the other subscription's callback through an operator.
        let throughAnOperator = cell.takesTheVariant
        let subscribesAgain = cell.takesTheVariant
        worker.async { [self] in
            defer { disposed.finish() }
            var other: (subscription: Disposable, input: Subscriber<Void, Never>)?
            if mode == .blockedDisposedInsideAnotherCallback {
                let (trigger, input) = Signal<Void, Never>.pipe()
                let signal = throughAnOperator ? trigger.map { $0 } : trigger
                other = (signal.subscribe(next: { [self] in disposeTheBlockedSubscription(blocker) }), input)
            }
            defer { other?.subscription.dispose() }
            guard blocker.waitForEntry() == .blocked, waitForTheDisposable(blocker) else { return }
            // (d1), rounds 2 and 3 of every 4: this thread subscribes to the signal under test
            // again first, which must not wait either.
            var second: Disposable?
            defer { second?.dispose() }
            if mode == .blockedDisposedFromAnotherThread, subscribesAgain, let signal = held.withLock({ $0.signal }) {
                second = signal.subscribe(next: { _ in }, error: { _ in }, completed: {})
                blocker.checkReturnedInTime("subscribe, on another thread,")
            }
            sendOneMoreMeanwhile()
            if let other {
                other.input.sendNext(())
            } else {
                disposeTheBlockedSubscription(blocker)
            }
        }
        let context = startSubscribing(blocker)
        guard disposed.wait(limit: 2 * MatrixWait.blockLimit, between: advance) else {
            blocker.abandon()
            MatrixThreads.replace(worker)
            let disposal = mode == .blockedLastReferenceReleased ? "letting go of the last reference" : "dispose()"
            return "\(disposal) did not return within \(Int(2 * MatrixWait.blockLimit)) s, though the blocked callback gave up waiting after \(Int(MatrixWait.blockLimit)) s"
        }
        return conclude(blocker, context)
    }

    /// (d2): the main thread disposes while the blocked callback, on another thread, does
    /// `DispatchQueue.main.sync {}`. A `Watchdog` ends the process if that `dispose()` never
    /// returns (the callback gives up after `MatrixWait.blockLimit`, so only a dispose that
    /// waits for something else can).
    private func runBlockedDisposedFromTheMainThread() -> String? {
        guard expected?.isEmpty != true else { return noCallbackToBlock() }
        let blocker = MatrixBlocker(mode: cell.mode, blocking: blockedIndex)
        let context = startSubscribing(blocker)
        // Meanwhile the main thread runs its queue and moves the clocks on: a callback that this
        // runs is on the main thread, where the mode does not apply.
        _ = MatrixWait.until({ blocker.entry != nil }, limit: MatrixWait.blockLimit, between: advance)
        guard blocker.entry == .blocked else { return conclude(blocker, context) }
        var target: Disposable?
        guard MatrixWait.until({
            target = held.withLock { $0.target }
            return target != nil
        }) else {
            blocker.problem("subscribe(next:) had not returned \(Int(MatrixWait.limit)) s into the blocked callback, on another thread")
            blocker.abandon()
            return conclude(blocker, context)
        }
        sendOneMoreMeanwhile()
        // In the variant, the dispose comes from a "Cancel" tap: the callback of another
        // subscription, which the main thread delivers.
        let (taps, tapInput) = Signal<Void, Never>.pipe()
        let tapSubscription = taps.subscribe(next: { [probe, target] in
            target?.dispose()
            probe.markDisposeReturned()
            blocker.release()
        })
        defer { tapSubscription.dispose() }
        // From here until `dispose()` returns, the main thread does not run its queue.
        blocker.parkTheMainThread()
        let watchdog = Watchdog(
            seconds: 6 * MatrixWait.blockLimit,
            "thread matrix: \(cell): dispose() on the main thread while the callback waits in DispatchQueue.main.sync"
        )
        if cell.takesTheVariant {
            tapInput.sendNext(())
        } else {
            target?.dispose()
            probe.markDisposeReturned()
            blocker.release()
        }
        watchdog.cancel()
        // Runs the callback's `DispatchQueue.main.sync` block.
        _ = MatrixWait.until({ blocker.hasUnblocked }, wake: probe.wake, limit: MatrixWait.blockLimit, between: advance)
        return conclude(blocker, context)
    }

    /// Subscribes, with `blocker`, and sends into the hot source, in the cell's context, without
    /// waiting.
    private func startSubscribing(_ blocker: MatrixBlocker) -> MatrixPending {
        let scoping = cell.mode == .blockedLastReferenceReleased
        let isHot = cell.source == .hot
        return cell.context.start { [self] in
            subscribe(keepingTarget: !scoping, selfDisposing: false, started: nil, blocker: blocker)
            if isHot {
                letTheSubscriptionSettle()
                send(started: nil)
            }
        }
    }

    /// With the hot source, makes another plain thread send one more value (4) into it, as the
    /// disposing thread disposes, while the callback blocks: that send may wait (senders do) but
    /// must return, and its value must not reach the subscription.
    private func sendOneMoreMeanwhile() {
        guard let input = held.withLock({ $0.input }) else { return }
        let sent = MatrixPending()
        held.withLock { $0.oneMoreSend = sent }
        MatrixThreads.sender.async {
            input.sendNext(ThreadMatrix.sourceValues.count + 1)
            sent.finish()
        }
    }

    /// Waits, on the disposing thread, until the disposable it needs is stored: at once, but for
    /// a callback on another thread than a `subscribe(next:)` that has not returned yet.
    private func waitForTheDisposable(_ blocker: MatrixBlocker) -> Bool {
        let scoping = cell.mode == .blockedLastReferenceReleased
        if MatrixWait.spin(until: { held.withLock { scoping ? $0.scoped != nil : $0.target != nil } }) { return true }
        blocker.problem("subscribe(next:) had not returned \(Int(MatrixWait.limit)) s into the blocked callback, on another thread")
        blocker.abandon()
        return false
    }

    /// Disposes the subscription whose callback blocks, the round's way, then lets the callback go.
    private func disposeTheBlockedSubscription(_ blocker: MatrixBlocker) {
        if cell.mode == .blockedLastReferenceReleased {
            var last = held.withLock { $0.scoped.take() }
            last = nil
            withExtendedLifetime(last) {}
        } else {
            held.withLock { $0.target }?.dispose()
        }
        probe.markDisposeReturned()
        blocker.release()
    }

    /// Which event's callback blocks: the first in rounds 0-3 of every 8; in rounds 4-7, where
    /// the events are known, the last (often the terminal event, with the synchronous source),
    /// or the one before it when the row ends only once let go of.
    private var blockedIndex: Int {
        guard cell.blocksALaterEvent, let expected, let last = expected.last else { return 0 }
        let lastComes = !(endsOnlyWhenLetGo && last.isFinished)
        return max(0, expected.count - (lastComes ? 1 : 2))
    }

    /// A cell whose source makes the row send nothing: there is no callback to block.
    private func noCallbackToBlock() -> String? {
        MatrixNotApplicable.record(cell.mode, "the row sends nothing from this source")
        return nil
    }

    /// Once the disposer is done: waits for the context's block, then checks the round.
    private func conclude(_ blocker: MatrixBlocker, _ context: MatrixPending) -> String? {
        guard context.wait(limit: MatrixWait.blockLimit, between: advance) else {
            blocker.abandon()
            if cell.context == .plainThread { MatrixThreads.replace(MatrixThreads.subscriber) }
            return hang("subscribe and send")
        }
        if let sent = held.withLock({ $0.oneMoreSend }), !sent.wait(between: advance) {
            blocker.abandon()
            MatrixThreads.replace(MatrixThreads.sender)
            return "a value sent into the hot source by another thread while the callback blocked: its send had not returned \(Int(MatrixWait.limit)) s after the context's block"
        }
        if !probe.disposeHasReturned {
            // Not disposed while blocked (not applicable, or it went wrong): end it here.
            held.withLock { $0.target }?.dispose()
            var last = held.withLock { $0.scoped.take() }
            last = nil
            withExtendedLifetime(last) {}
            probe.markDisposeReturned()
        }
        switch blocker.entry {
        case nil:
            blocker.abandon()
            let events = probe.events
            return "no callback came to block within \(Int(MatrixWait.blockLimit)) s (got \(events))"
        case let .notApplicable(reason):
            MatrixNotApplicable.record(cell.mode, reason)
            return finish(.prefix)
        case .blocked:
            MatrixNotApplicable.record(cell.mode, nil)
            let problems = blocker.problems + [finish(.throughBlocked(blocker.blockedIndex), lateAllowed: 0)].compactMap { $0 }
            return problems.isEmpty ? nil : problems.joined(separator: "; ")
        }
    }
}
