import Disposables
import Foundation
import Schedulers
import Signals

// The shapes of "disposal never waits": dispose(), subscribe and every deinit never wait for a
// callback, for another subscription's delivery or for any other thread. Once dispose() has
// returned, no callback of that subscription starts; a callback already running may finish.

/// Where the value that blocks subscriber A is sent from.
public enum SenderThread: String, Sendable {
    /// T1 is a plain thread (no scheduler current); T2 is another.
    case plainThread = "sent on a plain thread"
    /// T1 is the main thread; T2 is a plain thread.
    case mainThread = "sent on the main thread"
}

/// How subscriber B's disposable is held, and so how T2 ends B's subscription.
public enum Holding: String, Sendable {
    /// T2 calls `dispose()` on the disposable `subscribe` returned.
    case itself = "disposed itself"
    /// The disposable is in a `CompoundDisposable` (with another), which T2 disposes.
    case compound = "held in a disposed CompoundDisposable"
    /// The disposable is in a `ScopedDisposable` that an owner object keeps; T2 lets go of the
    /// owner's last reference.
    case scopedInReleasedOwner = "held in a ScopedDisposable whose owner is released"
}

/// How subscriber B reaches the hot source: the signal B subscribes to, made from the source.
public struct Route: Sendable {
    public let name: String
    public let make: @Sendable (Signal<Int, Never>) -> Routed

    public init(_ name: String, _ make: @escaping @Sendable (Signal<Int, Never>) -> Routed) {
        self.name = name
        self.make = make
    }
}

/// What a ``Route`` made: the signal B subscribes to, what to do once B has subscribed, and what
/// must stay alive meanwhile (an operator's other input).
public struct Routed: Sendable {
    public let signal: Signal<Int, Never>
    public let afterSubscribing: @Sendable () -> Void
    public let keepAlive: (any Sendable)?
    /// Whether A subscribes to ``signal`` too (a multicast signal both share), rather than to the
    /// source.
    public let sharedWithA: Bool

    public init(
        _ signal: Signal<Int, Never>,
        keepAlive: (any Sendable)? = nil,
        sharedWithA: Bool = false,
        afterSubscribing: @escaping @Sendable () -> Void = {}
    ) {
        self.signal = signal
        self.keepAlive = keepAlive
        self.sharedWithA = sharedWithA
        self.afterSubscribing = afterSubscribing
    }
}

extension Route {
    /// B subscribes to the source itself.
    public static let direct = Route("directly") { Routed($0) }

    /// `source.merge(other)`, with `other` a pipe that never sends.
    public static let merge = Route("through merge") { source in
        let (other, otherInput) = Signal<Int, Never>.pipe()
        return Routed(source.merge(other), keepAlive: otherInput)
    }

    /// `outer.flatten()`, with `outer` a pipe that sends the source once B has subscribed.
    public static let flatten = Route("through flatten") { source in
        let (outer, outerInput) = Signal<Signal<Int, Never>, Never>.pipe()
        return Routed(outer.flatten(), keepAlive: outerInput, afterSubscribing: { outerInput.sendNext(source) })
    }

    /// `outer.switchToLatest()`, with `outer` a pipe that sends the source once B has subscribed.
    public static let switchToLatest = Route("through switchToLatest") { source in
        let (outer, outerInput) = Signal<Signal<Int, Never>, Never>.pipe()
        return Routed(outer.switchToLatest(), keepAlive: outerInput, afterSubscribing: { outerInput.sendNext(source) })
    }

    /// `source.combineLatest(with: source)`, its first element: B reaches the source twice, both
    /// through one junction.
    public static let combineLatest = Route("through combineLatest") { source in
        Routed(source.combineLatest(with: source).map { $0.0 })
    }

    /// `source.zip(with: source)`, its first element: B reaches the source twice, both through one
    /// junction.
    public static let zip = Route("through zip") { source in
        Routed(source.zip(with: source).map { $0.0 })
    }

    /// `source.take(until: trigger)`, with `trigger` a pipe that never sends.
    public static let takeUntil = Route("through take(until:)") { source in
        let (trigger, triggerInput) = Signal<Int, Never>.pipe()
        return Routed(source.take(until: trigger), keepAlive: triggerInput)
    }

    /// `source.deliver(on: scheduler)`: B's callbacks run on `scheduler`.
    public static func deliver(on scheduler: Scheduler) -> Route {
        Route("through deliver(on: \(scheduler.name))") { Routed($0.deliver(on: scheduler)) }
    }

    /// `source.subscribe(on: scheduler)`: B joins the source on `scheduler`.
    public static func subscribe(on scheduler: Scheduler) -> Route {
        Route("through subscribe(on: \(scheduler.name))") { Routed($0.subscribe(on: scheduler)) }
    }

    /// Every route of the Signals module, with background schedulers of their own for the hops.
    public static var signalsRoutes: [Route] {
        [
            .direct, .merge, .flatten, .switchToLatest, .combineLatest, .zip, .takeUntil,
            .deliver(on: .background(name: "deliver(on:) scheduler")),
            .subscribe(on: .background(name: "subscribe(on:) scheduler")),
        ]
    }
}

/// Keeps subscriber B's disposable as a ``Holding`` says, and ends it that way.
public final class SubscriptionHolder: Sendable {
    /// An object that owns a subscription through a `ScopedDisposable`, as a view model does.
    public final class Owner: Sendable {
        public let subscription: ScopedDisposable

        public init(_ subscription: Disposable) {
            self.subscription = subscription.asScoped()
        }
    }

    public let holding: Holding
    private let disposable = Lock<Disposable?>(nil)
    private let owner = Lock<Owner?>(nil)
    /// The owner, while it lives.
    public let ownerReference: WeakReference<Owner>?

    public init(_ holding: Holding, _ subscription: Disposable) {
        self.holding = holding
        switch holding {
        case .itself:
            disposable.withLock { $0 = subscription }
            ownerReference = nil
        case .compound:
            disposable.withLock { $0 = CompoundDisposable([Disposable(), subscription]) }
            ownerReference = nil
        case .scopedInReleasedOwner:
            let owner = Owner(subscription)
            ownerReference = WeakReference(owner)
            self.owner.withLock { $0 = owner }
        }
    }

    /// Ends the subscription: disposes the disposable (or the compound holding it), or lets go of
    /// the owner's last reference, whose deinit disposes the scoped disposable.
    public func release() {
        switch holding {
        case .itself, .compound:
            disposable.withLock { $0 }?.dispose()
        case .scopedInReleasedOwner:
            // Taken out under the lock, released outside it.
            var taken = owner.withLock { $0.take() }
            precondition(taken != nil, "SubscriptionHolder.release(): released twice")
            taken = nil
        }
    }
}

/// Shape 1 of "disposal never waits": two subscribers, A and B, of the same hot source. A's
/// callback runs on thread T1 and blocks until T2 signals; T2 ends B's subscription (as `holding`
/// says) and then signals. It must not hang (the watchdog ends the process if it does); once
/// T2's dispose has returned, B's callback never runs again; and once A's callback has returned,
/// B's closure is freed.
///
/// A is subscribed first (to the source, or to the multicast signal B reaches it through when
/// the route shares it with A), so T1 delivers each value to A before B: B's callback for the
/// value that blocks A cannot have started before the dispose, and must never run.
///
/// The source is sent warm-up values below 0 first, until B has one; then 1, which blocks A,
/// and 2.
///
/// - Parameters:
///   - shape: The shape's name, for the watchdog and the failures.
///   - source: The hot source, with nothing sent yet but what it replays (0 at most).
///   - send: Sends a value into the source.
///   - sender: Where the value that blocks A is sent (T1).
///   - route: How B reaches the source.
///   - holding: How B's disposable is held and ended.
/// - Returns: A description of each failure; none when the shape holds. Call it on the main
///   thread.
public func disposalWhileAnotherSubscriberBlocks(
    _ shape: String,
    source: Signal<Int, Never>,
    send: @escaping @Sendable (Int) -> Void,
    sender: SenderThread = .plainThread,
    route: Route = .direct,
    holding: Holding = .itself,
    file: StaticString = #filePath,
    line: UInt = #line
) -> [String] {
    precondition(Thread.isMainThread, "disposalWhileAnotherSubscriberBlocks runs on the main thread")
    let watchdog = Watchdog(shape, file: file, line: line)
    defer { watchdog.cancel() }
    var failures: [String] = []

    // A: blocks T1 in its callback for value 1 until T2 has ended B.
    let routed = route.make(source)
    let aEntered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let aSaw = Recorder<Int>()
    let a = (routed.sharedWithA ? routed.signal : source).subscribe(next: { value in
        aSaw.record(value)
        guard value == 1 else { return }
        aEntered.signal()
        release.wait()
    })

    // B: counts the callbacks that start after T2's dispose returned.
    let bSaw = Recorder<Int>()
    let disposeReturned = Flag()
    let lateCallbacks = Counter()
    let (holder, token) = trackingLifetime { token in
        SubscriptionHolder(holding, routed.signal.subscribe(next: { value in
            if disposeReturned.isSet { lateCallbacks.increment() }
            withExtendedLifetime(token) {}
            bSaw.record(value)
        }))
    }
    routed.afterSubscribing()

    // Warm-up, with values below 0: B is live once it got the last one sent. A hop to another
    // scheduler may take a moment, and a subscription made there may miss the first values, so a
    // new one goes every 50 ms until B has one; waiting for the last one sent means that none is
    // still on its way to B when T2 disposes.
    var lastWarmUp = 0
    var lastSent = DispatchTime.now()
    let live = eventually {
        if lastWarmUp < 0, aSaw.values.contains(lastWarmUp), bSaw.values.contains(lastWarmUp) { return true }
        if lastWarmUp == 0 || bSaw.values.allSatisfy({ $0 >= 0 }) && DispatchTime.now() > lastSent + .milliseconds(50) {
            lastWarmUp -= 1
            lastSent = DispatchTime.now()
            send(lastWarmUp)
        }
        return false
    }
    guard live else {
        return ["\(shape): B never got the warm-up values (A got \(aSaw.values), B got \(bSaw.values))"]
    }

    // The shape.
    let t2Finished = startThread("T2: ends B") {
        aEntered.wait()
        holder.release()
        disposeReturned.set()
        release.signal()
    }
    switch sender {
    case .plainThread:
        let t1Finished = startThread("T1: sends") {
            send(1)
            send(2)
        }
        spinMainRunLoop(untilAllSet: t1Finished, t2Finished)
    case .mainThread:
        send(1)
        send(2)
        spinMainRunLoop(untilAllSet: t2Finished)
    }

    if !eventually({ aSaw.values.contains(2) }) {
        failures.append("\(shape): A never got the value sent after the dispose (A got \(aSaw.values))")
    }
    if let owner = holder.ownerReference, owner.isAlive {
        failures.append("\(shape): the owner of B's ScopedDisposable outlived its last reference")
    }
    if !eventually({ !token.isAlive }) {
        failures.append("\(shape): B's closure is still alive 10 s after A's callback returned")
    }
    if lateCallbacks.value != 0 {
        failures.append("\(shape): B's callback started \(lateCallbacks.value) time(s) after dispose() returned (B got \(bSaw.values))")
    }
    if bSaw.values.contains(where: { $0 > 0 }) {
        failures.append("\(shape): B got a value sent after A, whose callback returned only after B's dispose (B got \(bSaw.values))")
    }
    a.dispose()
    withExtendedLifetime(routed) {}
    return failures
}

/// Which subscription of the progress source a "Cancel tap" disposes, in
/// ``disposalInsideACallbackWhileAnotherThreadDelivers(_:taps:sendTap:progress:sendProgress:disposing:file:line:)``.
public enum DisposedSubscription: String, Sendable {
    /// The download's subscription, whose callback the worker thread is inside.
    case theOneOnTheWorker = "the subscription the worker is delivering to"
    /// Another subscription of the progress source, after the one the worker is inside.
    case aSiblingOfIt = "a sibling of the subscription the worker is delivering to"
}

/// Shape 3 of "disposal never waits": a dispose made inside a callback while the other
/// subscription's delivery is on another thread.
///
/// A worker thread sends progress; the download's progress callback does
/// `DispatchQueue.main.sync {}` (a UI update), so it stays inside its callback while the main
/// thread does not run its queue. Meanwhile the main thread sends a tap; the tap's callback (a
/// "Cancel" button) disposes `disposing`. The tap's send must return (the watchdog ends the
/// process if it does not); once that dispose has returned no callback of the disposed
/// subscription starts; and its closure is freed once the worker's callback has returned.
///
/// - Returns: A description of each failure; none when the shape holds. Call it on the main
///   thread.
public func disposalInsideACallbackWhileAnotherThreadDelivers(
    _ shape: String,
    taps: Signal<Void, Never>,
    sendTap: @escaping @Sendable () -> Void,
    progress: Signal<Int, Never>,
    sendProgress: @escaping @Sendable (Int) -> Void,
    disposing: DisposedSubscription,
    file: StaticString = #filePath,
    line: UInt = #line
) -> [String] {
    precondition(Thread.isMainThread, "disposalInsideACallbackWhileAnotherThreadDelivers runs on the main thread")
    let watchdog = Watchdog(shape, file: file, line: line)
    defer { watchdog.cancel() }
    var failures: [String] = []

    let workerEntered = Flag()
    let disposeReturned = Flag()
    let lateCallbacks = Counter()
    let downloadSaw = Recorder<Int>()
    let cancel = DisposableBox()
    let (subscriptions, token) = trackingLifetime { token in
        // Only the disposed subscription's closure may capture the token: a closure that names it
        // captures it, whichever branch runs.
        let onProgress: @Sendable (Int) -> Void = { value in
            downloadSaw.record(value)
            workerEntered.set()
            DispatchQueue.main.sync {}
        }
        let download = disposing == .theOneOnTheWorker
            ? progress.subscribe(next: { value in
                if disposeReturned.isSet { lateCallbacks.increment() }
                withExtendedLifetime(token) {}
                onProgress(value)
            })
            : progress.subscribe(next: onProgress)
        guard disposing == .aSiblingOfIt else { return (download: download, disposed: download) }
        let sibling = progress.subscribe(next: { _ in
            if disposeReturned.isSet { lateCallbacks.increment() }
            withExtendedLifetime(token) {}
        })
        return (download: download, disposed: sibling)
    }
    cancel.disposable = subscriptions.disposed
    let tapSubscription = taps.subscribe(next: {
        cancel.disposable?.dispose()
        disposeReturned.set()
    })

    let worker = startThread("worker: sends progress") {
        sendProgress(1)
        sendProgress(2)
    }
    guard pollWithoutRunningTheMainQueue({ workerEntered.isSet }) else {
        return ["\(shape): the worker never entered the progress callback"]
    }
    sendTap()
    if !disposeReturned.isSet { failures.append("\(shape): the tap's callback did not run within its send") }
    spinMainRunLoop(untilAllSet: worker)

    if !eventually({ !token.isAlive }) {
        failures.append("\(shape): the disposed subscription's closure is still alive 10 s after the worker's callback returned")
    }
    if lateCallbacks.value != 0 {
        failures.append("\(shape): a callback of the disposed subscription started \(lateCallbacks.value) time(s) after dispose() returned")
    }
    if disposing == .theOneOnTheWorker, downloadSaw.values != [1] {
        failures.append("\(shape): the download got \(downloadSaw.values), not [1]")
    }
    if disposing == .aSiblingOfIt, !eventually({ downloadSaw.values == [1, 2] }) {
        failures.append("\(shape): the download, not disposed, got \(downloadSaw.values), not [1, 2]")
    }
    tapSubscription.dispose()
    subscriptions.download.dispose()
    return failures
}

/// Shape 6 of "disposal never waits": a producer thread sends into a hot source nonstop while the
/// main thread subscribes to it and disposes again, `cycles` times.
///
/// A long-lived subscriber, L, records on which thread each of its callbacks runs: none may run on
/// the main thread, which only subscribes and disposes (a thread that disposes or subscribes never
/// delivers another subscription's events). Each cycle must complete (the watchdog ends the
/// process if one hangs), and every short-lived subscription's closure must be freed.
///
/// - Parameters:
///   - source: The hot signal both L and the main thread subscribe to.
///   - send: Sends a value into it (into what is behind it, for a multicast signal).
///   - afterFlood: Runs on the main thread after the cycles, while the producer still sends (for
///     checks of the source's state); its failures are added.
/// - Returns: A description of each failure; none when the shape holds. Call it on the main
///   thread.
public func floodWhileTheMainThreadSubscribesAndDisposes(
    _ shape: String,
    source: Signal<Int, Never>,
    send: @escaping @Sendable (Int) -> Void,
    cycles: Int = 2_000,
    afterFlood: () -> [String] = { [] },
    file: StaticString = #filePath,
    line: UInt = #line
) -> [String] {
    precondition(Thread.isMainThread, "floodWhileTheMainThreadSubscribesAndDisposes runs on the main thread")
    let watchdog = Watchdog(shape, file: file, line: line)
    defer { watchdog.cancel() }
    var failures: [String] = []

    let onMainThread = Counter()
    let received = Counter()
    // What L gets inside its own subscribe (a replay, a cell's current value) does not count.
    let subscribed = Flag()
    let longLived = source.subscribe(next: { _ in
        guard subscribed.isSet else { return }
        if Thread.isMainThread { onMainThread.increment() }
        received.increment()
    })
    subscribed.set()
    let stop = Flag()
    let producer = startThread("producer: floods") {
        var value = 0
        while !stop.isSet {
            send(value)
            value &+= 1
        }
    }
    guard eventually({ received.value > 0 }) else {
        stop.set()
        return ["\(shape): the long-lived subscriber never got a value"]
    }

    let alive = Counter()
    for _ in 0..<cycles {
        let token = CountedToken(alive)
        let subscription = source.subscribe(next: { _ in withExtendedLifetime(token) {} })
        subscription.dispose()
    }
    failures += afterFlood()
    stop.set()
    spinMainRunLoop(untilAllSet: producer)

    if onMainThread.value != 0 {
        failures.append("\(shape): the long-lived subscriber's callback ran \(onMainThread.value) time(s) on the main thread, which only subscribed and disposed")
    }
    if !eventually({ alive.value == 0 }) {
        failures.append("\(shape): \(alive.value) of the \(cycles) disposed subscriptions' closures are still alive 10 s after the flood")
    }
    longLived.dispose()
    return failures
}

/// A token that counts itself in `alive` while it lives.
public final class CountedToken: Sendable {
    private let alive: Counter

    public init(_ alive: Counter) {
        self.alive = alive
        alive.increment()
    }

    deinit {
        alive.decrement()
    }
}
