import Disposables
import Foundation
import Schedulers
import Signals
import Synchronization
import TestSupport
import XCTest

/// The leak an app team met: a main-actor view model whose closure captures `self` strongly, and which
/// keeps the subscription in its own property, so the two keep each other alive.
@MainActor final class LeakingSearchModel {
    var results: [String] = []
    let subscriptions = CompoundDisposable()
    /// The line of the `subscribe` call in ``bind(_:)``.
    private(set) var bindLine: UInt = 0

    func bind(_ queries: Signal<String, Never>) {
        bindLine = #line; subscriptions.add(queries.filter { !$0.isEmpty }.map { "results for \($0)" }.subscribeNextOnMainActor { self.results.append($0) })
    }
}

/// The same model, fixed: `self` captured weakly, and the subscription disposed when it goes.
@MainActor final class WeakSearchModel {
    var results: [String] = []
    let subscriptions = CompoundDisposable()

    func bind(_ queries: Signal<String, Never>) {
        subscriptions.add(queries.map { "results for \($0)" }.subscribeNextOnMainActor { [weak self] in self?.results.append($0) })
    }

    deinit { subscriptions.dispose() }
}

/// The same model, fixed with a lifetime: the subscription ends when the model's token goes.
@MainActor final class LifetimeSearchModel {
    var results: [String] = []
    let lifetime: Lifetime
    private let token: Lifetime.Token

    init() {
        (lifetime, token) = Lifetime.make()
    }

    func bind(_ queries: Signal<String, Never>) {
        queries.take(during: lifetime).subscribeNextOnMainActor { [weak self] in self?.results.append($0) }
    }
}

/// `SignalDiagnostics.isTrackingSubscriptions` and `liveSubscriptions`: which subscriptions are
/// alive, by their signals' names and where they were made.
final class SubscriptionTrackingTests: LeakCheckedTestCase {
    override func setUp() {
        super.setUp()
        SignalDiagnostics.isTrackingSubscriptions = true
    }

    override func tearDown() {
        SignalDiagnostics.isTrackingSubscriptions = false
        super.tearDown()
    }

    /// The subscriptions listed that were made in this file (other tests' may be alive).
    private var listedHere: [SignalDiagnostics.LiveSubscription] {
        SignalDiagnostics.liveSubscriptions.filter { $0.file == "\(#fileID)" }
    }

    private func onMain<T: Sendable>(_ body: @MainActor () -> T) -> T {
        MainActor.assumeIsolated(body)
    }

    func testTheSelfCapturingViewModel_isListedWithItsNameChainFileAndLine() {
        let (queries, input) = Signal<String, Never>.pipe()
        queries.named("search")
        let before = SignalDiagnostics.liveSubscriptionCount
        let (model, line) = onMain { () -> (WeakReference<LeakingSearchModel>, UInt) in
            let model = LeakingSearchModel()
            model.bind(queries)
            return (WeakReference(model), model.bindLine)
        }
        input.sendNext("swift")
        XCTAssertEqual(onMain { model.object?.results }, ["results for swift"])
        // The model is gone from every variable: only the cycle keeps it.
        XCTAssertTrue(model.isAlive)
        XCTAssertGreaterThan(SignalDiagnostics.liveSubscriptionCount, before)

        let listed = listedHere
        XCTAssertEqual(listed.count, 1, "\(listed)")
        XCTAssertEqual(listed.first?.name, "[[search] -filter:] -map:")
        XCTAssertEqual(listed.first?.file, "SignalsConcurrencyTests/SubscriptionTrackingTests.swift")
        XCTAssertEqual(listed.first?.line, line)
        XCTAssertEqual(listed.first?.isMainThread, true)
        XCTAssertEqual(
            listed.first?.description,
            "`[[search] -filter:] -map:` subscribed at SignalsConcurrencyTests/SubscriptionTrackingTests.swift:\(line)"
        )
        let report = SignalDiagnostics.report()
        XCTAssertTrue(report.contains("`[[search] -filter:] -map:` subscribed at SignalsConcurrencyTests/SubscriptionTrackingTests.swift:\(line)"), report)

        // Breaking the cycle frees the model and the subscription, and the entry goes with it.
        onMain { model.object?.subscriptions.dispose() }
        XCTAssertFalse(model.isAlive)
        XCTAssertEqual(listedHere, [])
        XCTAssertEqual(SignalDiagnostics.liveSubscriptionCount, before)
        withExtendedLifetime(input) {}
    }

    func testTheWeakSelfViewModel_leavesNothingListed() {
        let (queries, input) = Signal<String, Never>.pipe()
        let model = onMain { () -> WeakReference<WeakSearchModel> in
            let model = WeakSearchModel()
            model.bind(queries)
            return WeakReference(model)
        }
        XCTAssertFalse(model.isAlive)
        input.sendNext("swift")
        XCTAssertEqual(listedHere, [])
        withExtendedLifetime(input) {}
    }

    func testTheWeakSelfViewModel_isListedWhileItLives() {
        let (queries, input) = Signal<String, Never>.pipe()
        let model = onMain { WeakSearchModel() }
        onMain { model.bind(queries) }
        XCTAssertEqual(listedHere.count, 1)
        withExtendedLifetime(model) {}
        onMain { model.subscriptions.dispose() }
        XCTAssertEqual(listedHere, [])
        withExtendedLifetime(input) {}
    }

    func testTheLifetimeViewModel_leavesNothingListed() {
        let (queries, input) = Signal<String, Never>.pipe()
        let model = onMain { () -> WeakReference<LifetimeSearchModel> in
            let model = LifetimeSearchModel()
            model.bind(queries)
            return WeakReference(model)
        }
        XCTAssertFalse(model.isAlive)
        input.sendNext("swift")
        XCTAssertEqual(listedHere, [])
        withExtendedLifetime(input) {}
    }

    func testAnEntryLeavesWhenItsSubscriptionCompletes() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let line = #line; _ = signal.subscribe(next: { _ in }, completed: {})
        XCTAssertEqual(listedHere.map(\.line), [UInt(line)])
        XCTAssertEqual(listedHere.first?.name, nil)
        XCTAssertEqual(listedHere.first?.signalName, "Signal<Int, Never>")
        input.sendCompleted()
        XCTAssertEqual(listedHere, [])
    }

    func testAnEntryLeavesWhenItsSubscriptionFails() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let subscription = signal.subscribeError { _ in }
        XCTAssertEqual(listedHere.count, 1)
        input.sendError(.first)
        XCTAssertEqual(listedHere, [])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testAnEntryLeavesWhenItsSubscriptionIsDisposed_atTheMomentTheCountDrops() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let before = SignalDiagnostics.liveSubscriptionCount
        let subscription = signal.subscribeNext { _ in }
        XCTAssertEqual(listedHere.count, 1)
        XCTAssertEqual(SignalDiagnostics.liveSubscriptionCount, before + 1)
        subscription.dispose()
        XCTAssertEqual(listedHere, [])
        XCTAssertEqual(SignalDiagnostics.liveSubscriptionCount, before)
        // The disposable is still held: the entry went with the closures, not with it.
        withExtendedLifetime(subscription) {}
        withExtendedLifetime(input) {}
    }

    func testAnEntryLeavesWhenItsSourceIsLetGo() {
        var pipe: (signal: Signal<Int, Never>, input: Subscriber<Int, Never>)? = Signal<Int, Never>.pipe()
        let subscription = pipe!.0.subscribeNext { _ in }
        XCTAssertEqual(listedHere.count, 1)
        pipe = nil
        XCTAssertEqual(listedHere, [])
        withExtendedLifetime(subscription) {}
    }

    func testASubscriberIsListedUntilItsSubscriptionEnds() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let line = #line; let subscription = signal.named("numbers").subscribe(Subscriber<Int, Never>(next: { _ in }))
        XCTAssertEqual(listedHere.map(\.line), [UInt(line)])
        XCTAssertEqual(listedHere.first?.name, "numbers")
        input.sendCompleted()
        XCTAssertEqual(listedHere, [])

        let (other, otherInput) = Signal<Int, Never>.pipe()
        let disposed = other.subscribe(Subscriber<Int, Never>(next: { _ in }))
        XCTAssertEqual(listedHere.count, 1)
        disposed.dispose()
        XCTAssertEqual(listedHere, [])
        withExtendedLifetime((subscription, otherInput)) {}
    }

    func testAnActorsAndAnAssignedSubscriptionAreListedWhereTheyWereMade() {
        final class Box: @unchecked Sendable { var value = 0 }
        actor Store { var total = 0 }
        let (signal, input) = Signal<Int, Never>.pipe()
        let box = Box(), store = Store()
        let assignLine = #line; let assigned = signal.assign(to: \.value, on: box)
        let actorLine = #line; let onActor = signal.subscribeOnActor(store, next: { store, value in store.total += value })
        XCTAssertEqual(listedHere.map(\.line), [UInt(assignLine), UInt(actorLine)])
        assigned.dispose()
        onActor.dispose()
        XCTAssertEqual(listedHere, [])
        withExtendedLifetime(input) {}
    }

    /// Tracking keeps nothing alive: what the closure captured goes when the subscription is
    /// disposed, as without tracking.
    func testTrackingHoldsNothingOfTheSubscription() {
        final class Captured: Sendable {}
        let (signal, input) = Signal<Int, Never>.pipe()
        weak var weakCaptured: Captured?
        let subscription: Disposable = {
            let captured = Captured()
            weakCaptured = captured
            return signal.subscribeNext { _ in withExtendedLifetime(captured) {} }
        }()
        XCTAssertNotNil(weakCaptured)
        _ = SignalDiagnostics.liveSubscriptions
        subscription.dispose()
        XCTAssertNil(weakCaptured)
        withExtendedLifetime(input) {}
    }

    /// Subscriptions made and freed on eight threads while another lists them: every listing is
    /// whole, and what is left at the end is exactly what is still alive.
    func testListingWhileSubscribingFromManyThreads() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let kept = Lock<[Disposable]>([])
        let stop = Atomic<Bool>(false)
        let listings = Atomic<Int>(0)
        let lister = Thread {
            while !stop.load(ordering: .relaxed) {
                let listed = SignalDiagnostics.liveSubscriptions
                XCTAssertTrue(listed.allSatisfy { $0.line > 0 && !$0.file.isEmpty })
                _ = SignalDiagnostics.report()
                listings.wrappingAdd(1, ordering: .relaxed)
            }
        }
        lister.start()
        let threads = 8, each = BuildKind.raceRounds(optimized: 400, debug: 200, sanitized: 50)
        race(threads: threads) { _ in
            for index in 0..<each {
                let subscription = signal.subscribeNext { _ in }
                if index.isMultiple(of: 2) {
                    kept.withLock { $0.append(subscription) }
                } else {
                    subscription.dispose()
                }
            }
        }
        XCTAssertTrue(eventually { listings.load(ordering: .relaxed) > 0 })
        stop.store(true, ordering: .relaxed)
        XCTAssertEqual(listedHere.count, threads * each / 2)
        let all = kept.withLock { $0 }
        kept.withLock { $0 = [] }
        race(threads: threads) { thread in
            for index in stride(from: thread, to: all.count, by: threads) { all[index].dispose() }
        }
        XCTAssertEqual(listedHere, [])
        withExtendedLifetime(input) {}
    }

    /// Off, nothing is recorded and no name is kept.
    func testSwitchedOff_listsNothingAndKeepsNoNames() {
        SignalDiagnostics.isTrackingSubscriptions = false
        let (signal, input) = Signal<Int, Never>.pipe()
        let named = signal.named("off")
        let subscription = named.map { $0 }.subscribeNext { _ in }
        XCTAssertEqual(listedHere, [])
        if !SignalDebug.isEnabled { XCTAssertNil(named.name) }
        XCTAssertTrue(SignalDiagnostics.report().contains("subscription tracking is off"))
        // Turned on later, it lists only what is made from then on.
        SignalDiagnostics.isTrackingSubscriptions = true
        XCTAssertEqual(listedHere, [])
        let later = signal.subscribeNext { _ in }
        XCTAssertEqual(listedHere.count, 1)
        subscription.dispose()
        later.dispose()
        withExtendedLifetime(input) {}
    }

    func testReport_countsAndListsOldestFirst() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let first = signal.named("first").subscribeNext { _ in }
        let second = signal.map { $0 }.named("second").subscribeNext { _ in }
        XCTAssertEqual(listedHere.map(\.name), ["first", "second"])
        let report = SignalDiagnostics.report()
        let firstRange = report.range(of: "`first` subscribed at SignalsConcurrencyTests/SubscriptionTrackingTests.swift:")
        let secondRange = report.range(of: "`second` subscribed at SignalsConcurrencyTests/SubscriptionTrackingTests.swift:")
        XCTAssertNotNil(firstRange)
        XCTAssertNotNil(secondRange)
        if let firstRange, let secondRange { XCTAssertLessThan(firstRange.lowerBound, secondRange.lowerBound) }
        first.dispose()
        second.dispose()
        withExtendedLifetime(input) {}
    }
}
