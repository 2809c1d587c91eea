import Disposables
import Foundation
import Schedulers
import Sequences
import Signals
import TestSupport
import XCTest

/// Random chains of stream operators (`DifferentialModel.swift`), run three ways: on a `Signal`,
/// on a `LazyList` and on the array model, which must agree on every element and, for the signal,
/// on the terminal event.
///
/// The signal runs the chain as generated, errors included, with synchronous sources; the list
/// runs it with the errors taken out (a list cannot fail), and without the operators it lacks
/// (`take(until:)`, `skip(until:)`, `take(untilReplacement:)`), whose chains only the signal and
/// the model run. A smaller
/// number of seeds also runs on signals whose sources send on queue schedulers: with errors when
/// only the chain's source does (the model knows the order of the events then), without errors
/// when the second inputs of `concat` and `zip` send on another queue.
///
/// A failure names its seed and prints the chain; `DIFFERENTIAL_SEED=n swift test --filter
/// DifferentialTests` runs seed `n` alone and prints what each way gave, and `DIFFERENTIAL_SEEDS=n`
/// runs seeds `0..<n` in both tests (to hunt with more seeds than a run has time for).
final class DifferentialTests: LeakCheckedTestCase {
    #if DEBUG
    /// Debug builds (the sanitizer runs are debug builds) run fewer seeds: about a second each;
    /// under ThreadSanitizer, which makes the synchronous runs about five times slower, a third
    /// of the synchronous ones (the runs on queues are the ones it is there for).
    static let synchronousSeeds: UInt64 = ThreadSanitizer.isActive ? 1_000 : 3_000
    static let queueSeeds: UInt64 = 300
    #else
    static let synchronousSeeds: UInt64 = 10_000
    static let queueSeeds: UInt64 = 1_000
    #endif

    /// The seeds to run: the one `DIFFERENTIAL_SEED` names, else `0..<count` (or
    /// `0..<DIFFERENTIAL_SEEDS`).
    private func seeds(_ count: UInt64) -> (seeds: [UInt64], replaying: Bool) {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["DIFFERENTIAL_SEED"], let seed = UInt64(text) {
            return ([seed], true)
        }
        return (Array(0..<(environment["DIFFERENTIAL_SEEDS"].flatMap { UInt64($0) } ?? count)), false)
    }

    /// The value inside which the third subscription to a seed's chain disposes itself: 1 to 3.
    private static func disposal(_ seed: UInt64) -> Int {
        Int(seed % 3) + 1
    }

    /// Each chain's signal is subscribed three times, one subscription after the other (each must
    /// not see state an earlier one left behind; the third disposes itself inside one of its first
    /// values, after which it must receive nothing), and each chain's list is walked twice: a few
    /// elements, then all of them (the second walk reads what the first memoised).
    func testRandomChains_synchronousSignalLazyListAndModelAgree() {
        let (seeds, replaying) = seeds(Self.synchronousSeeds)
        var failures = Failures()
        // Generous: a hang (a synchronous chain that never ends) is what it is for.
        withWatchdog(seconds: 60 + Double(seeds.count) / 100, "differential tests, synchronous sources") {
            for seed in seeds {
                let chain = ChainGenerator.chain(seed: seed)
                let expected = chain.model()
                let disposal = Self.disposal(seed)
                let signal = SignalBuilder(source: nil, others: nil).signal(chain)
                let runs = SignalRun.subscribe(signal, disposingAfter: [nil, nil, disposal])
                if replaying { print("seed \(seed): \(chain)\n  model: \(expected)\n  Signal: \(runs)") }
                for (index, run) in runs.enumerated() {
                    if let problem = run.problem(expected: expected, timed: true) {
                        failures.add(seed, "\(chain)\n  Signal, subscription \(index + 1) of \(runs.count), \(problem)")
                    }
                }
                let errorFree = chain.withoutErrors
                guard let list = ListBuilder.list(errorFree) else { continue }
                let listExpected = errorFree.model().outcome.values
                let pulled = Int(seed % 4)
                let firstWalk = Array(list.prefix(pulled))
                let secondWalk = list.array
                if replaying {
                    print("  without errors: \(errorFree)\n  model: \(listExpected)\n  LazyList: \(firstWalk), then \(secondWalk)")
                }
                if firstWalk != Array(listExpected.prefix(pulled)) || secondWalk != listExpected {
                    failures.add(seed, "\(errorFree)\n  LazyList gives \(firstWalk) for its first \(pulled), then \(secondWalk); the model gives \(listExpected)")
                }
            }
        }
        failures.report(seeds: seeds.count)
    }

    /// Each chain's signal runs twice per seed, each time subscribed three times at once (the
    /// subscriptions' sources share the queues, so their events interleave; the third disposes
    /// itself inside one of its first values):
    ///
    /// - as generated, errors included, with its source sending on a queue scheduler and the other
    ///   inputs synchronous, subscribed on that queue (so the source sends nothing before
    ///   `subscribe` returns): the model knows when each event happens (see ``Timeline``), so the
    ///   run must also send inside `subscribe` what the model sends there;
    /// - without errors, with the second inputs of `concat` and `zip` on a second queue,
    ///   subscribed on the test's thread: the order in which the threads run is not known, but the
    ///   elements are.
    func testRandomChains_signalFromQueueSchedulersAgreesWithModel() {
        let (seeds, replaying) = seeds(Self.queueSeeds)
        var failures = Failures()
        let sources = QueueScheduler(name: "differential sources")
        let others = QueueScheduler(name: "differential second inputs")
        for seed in seeds {
            let chain = ChainGenerator.chain(seed: seed)
            let expected = chain.model(stepped: true)
            let disposal = Self.disposal(seed)
            let runs = SignalRun.subscribe(SignalBuilder(source: sources, others: nil).signal(chain),
                                           disposingAfter: [nil, nil, disposal], on: sources)
            if replaying { print("seed \(seed), source on a queue: \(chain)\n  model: \(expected)\n  Signal: \(runs)") }
            for (index, run) in runs.enumerated() {
                if let problem = run.problem(expected: expected, timed: true) {
                    failures.add(seed, "source on a queue scheduler: \(chain)\n  Signal, subscription \(index + 1) of \(runs.count), \(problem)")
                }
            }

            let errorFree = chain.withoutErrors
            let errorFreeExpected = errorFree.model()
            let errorFreeRuns = SignalRun.subscribe(SignalBuilder(source: sources, others: others).signal(errorFree),
                                                    disposingAfter: [nil, nil, disposal])
            if replaying { print("  inputs on two queues: \(errorFree)\n  model: \(errorFreeExpected.outcome)\n  Signal: \(errorFreeRuns)") }
            for (index, run) in errorFreeRuns.enumerated() {
                if let problem = run.problem(expected: errorFreeExpected, timed: false) {
                    failures.add(seed, "inputs on two queue schedulers: \(errorFree)\n  Signal, subscription \(index + 1) of \(errorFreeRuns.count), \(problem)")
                }
            }
        }
        failures.report(seeds: seeds.count)
    }

    /// The generator is deterministic, so that a seed replays: the same seed gives the same chain.
    func testGenerator_sameSeedSameChain() {
        for seed: UInt64 in [0, 1, 42, 9_999] {
            XCTAssertEqual(ChainGenerator.chain(seed: seed).description, ChainGenerator.chain(seed: seed).description)
        }
        XCTAssertNotEqual(ChainGenerator.chain(seed: 1).description, ChainGenerator.chain(seed: 2).description)
    }

    /// The seeds of a debug run exercise every operator and every depth, and their chains do not
    /// mostly filter everything away: the differential tests compare more than empty streams.
    func testGenerator_seedsCoverEveryOperatorAndOutcome() {
        let chains = (0..<UInt64(3_000)).map(ChainGenerator.chain(seed:))
        let operators = Set(chains.flatMap(\.steps).map { Mirror(reflecting: $0).children.first?.label ?? $0.description })
        XCTAssertEqual(operators.count, 22, "operators generated: \(operators.sorted())")
        XCTAssertEqual(Set(chains.map(\.steps.count)), Set(1...6))
        XCTAssertEqual(Set(chains.map(\.source.values.count)), Set(0...8))
        let outcomes = chains.map { $0.model().outcome }
        XCTAssertGreaterThan(outcomes.filter { $0.values.count >= 2 }.count, chains.count / 3)
        XCTAssertGreaterThan(outcomes.filter(\.fails).count, chains.count / 10)
        XCTAssertGreaterThan(outcomes.filter { $0.fails && !$0.values.isEmpty }.count, chains.count / 20)
    }
}

/// The failures of a run: each is reported, up to a limit, then a count of the rest.
private struct Failures {
    private var messages: [String] = []

    mutating func add(_ seed: UInt64, _ message: String) {
        messages.append("seed \(seed): \(message)\n  replay: DIFFERENTIAL_SEED=\(seed) swift test --filter DifferentialTests")
    }

    func report(seeds: Int, file: StaticString = #filePath, line: UInt = #line) {
        for message in messages.prefix(10) {
            XCTFail(message, file: file, line: line)
        }
        if messages.count > 10 {
            XCTFail("… and \(messages.count - 10) more of \(seeds) seeds differ", file: file, line: line)
        }
    }
}

/// What a subscription to a chain's signal received, and what of it had arrived when `subscribe`
/// returned. A run may dispose its own subscription inside its n-th value: then it must receive
/// nothing more.
private final class SignalRun: Sendable, CustomStringConvertible {
    private enum Ending: Equatable {
        case completed, failed, disposed
    }

    private struct State: Equatable {
        var values: [Int] = []
        var ending: Ending?
        var eventsAfterEnd = 0
        var valuesInsideSubscribe = 0
        var endedInsideSubscribe = false
    }

    /// A `Lock` (a `Mutex` that ThreadSanitizer sees), as queue threads deliver.
    private let state = Lock(State())
    private let timedOut = Flag()
    /// The value inside which the run disposes its subscription.
    private let disposesAfter: Int?
    /// That subscription, known before the first value.
    private let ownSubscription = DisposableBox()

    private init(disposingAfter count: Int?) {
        disposesAfter = count
    }

    private var hasEnded: Bool { state.withLock { $0.ending != nil } }

    private func receive(_ value: Int) {
        let disposesNow = state.withLock { state in
            guard state.ending == nil else {
                state.eventsAfterEnd += 1
                return false
            }
            state.values.append(value)
            guard state.values.count == disposesAfter else { return false }
            state.ending = .disposed
            return true
        }
        if disposesNow { ownSubscription.disposable?.dispose() }
    }

    private func end(_ ending: Ending) {
        state.withLock { state in
            if state.ending == nil { state.ending = ending } else { state.eventsAfterEnd += 1 }
        }
    }

    /// Subscribes with closures, or with a `Subscriber` (whose disposable is known before any
    /// event) for a run that disposes itself.
    private func subscribe(_ signal: Signal<Int, TestError>) -> Disposable {
        let next: @Sendable (Int) -> Void = { self.receive($0) }
        let error: @Sendable (TestError) -> Void = { _ in self.end(.failed) }
        let completed: @Sendable () -> Void = { self.end(.completed) }
        let subscription: Disposable
        if disposesAfter == nil {
            subscription = signal.subscribe(next: next, error: error, completed: completed)
        } else {
            let subscriber = Subscriber(next: next, error: error, completed: completed)
            ownSubscription.disposable = subscriber.disposable
            subscription = signal.subscribe(subscriber)
        }
        state.withLock { state in
            state.valuesInsideSubscribe = state.values.count
            state.endedInsideSubscribe = state.ending != nil
        }
        return subscription
    }

    /// Subscribes to `signal` once for each element of `disposingAfter` (a run that disposes
    /// itself inside that value, or `nil`), one subscription after the other without waiting for
    /// the earlier to end, then waits up to 10 s for every subscription to end.
    ///
    /// With `scheduler`, the subscriptions are made in one block on it: a source sending on the
    /// same (serial) scheduler then sends its first event only after they have all returned, as
    /// the model's times say.
    static func subscribe(
        _ signal: Signal<Int, TestError>,
        disposingAfter counts: [Int?],
        on scheduler: QueueScheduler? = nil
    ) -> [SignalRun] {
        let runs = counts.map(SignalRun.init(disposingAfter:))
        let subscriptions = Lock<[Disposable]?>(nil)
        let subscribeAll: @Sendable () -> Void = {
            let made = runs.map { $0.subscribe(signal) }
            subscriptions.withLock { $0 = made }
        }
        if let scheduler { _ = scheduler.schedule(subscribeAll) } else { subscribeAll() }
        let ended = pollWithoutRunningTheMainQueue(timeout: defaultWaitSeconds) {
            subscriptions.withLock { $0 != nil } && runs.allSatisfy(\.hasEnded)
        }
        if !ended {
            for run in runs where !run.hasEnded { run.timedOut.set() }
        }
        // Disposing ends any subscription the deadline cut short.
        for subscription in subscriptions.withLock({ $0 }) ?? [] { subscription.dispose() }
        return runs
    }

    /// What this run should have received when the model gives `expected`.
    private func wanted(_ expected: Timeline) -> State {
        var wanted = State()
        wanted.values = expected.outcome.values
        wanted.ending = expected.fails ? .failed : .completed
        if let count = disposesAfter, wanted.values.count >= count {
            wanted.values = Array(wanted.values.prefix(count))
            wanted.ending = .disposed
        }
        return wanted
    }

    /// What is wrong with this run, if anything, when the model gives `expected`; `timed`, the
    /// run must also have received inside `subscribe` what the model sends at time 0.
    func problem(expected: Timeline, timed: Bool) -> String? {
        let state = state.withLock { $0 }
        let wanted = wanted(expected)
        let should = "; it should give \(Self.describe(wanted)) (the model: \(timed ? expected.description : expected.outcome.description))"
        guard state.ending != nil else {
            return "gives \(state.values) and no end" + (timedOut.isSet ? " in \(defaultWaitSeconds) s" : "") + should
        }
        if state.values != wanted.values || state.ending != wanted.ending { return "gives \(self)" + should }
        if state.eventsAfterEnd > 0 { return "gives \(self)" + should }
        guard timed else { return nil }
        let synchronousValues = min(wanted.values.count, expected.values.filter { $0.time == 0 }.count)
        if state.valuesInsideSubscribe < synchronousValues {
            return "gives \(self), but the model sends \(synchronousValues) value(s) inside subscribe"
        }
        if expected.endTime == 0, wanted.ending != .disposed, !state.endedInsideSubscribe {
            return "gives \(self), but the model ends inside subscribe"
        }
        return nil
    }

    private static func describe(_ state: State) -> String {
        "\(state.values) then " + (state.ending.map { "\($0)" } ?? "no end")
    }

    var description: String {
        let state = state.withLock { $0 }
        return Self.describe(state)
            + (state.eventsAfterEnd > 0 ? " + \(state.eventsAfterEnd) event(s) after the end" : "")
            + " (\(state.valuesInsideSubscribe) value(s)\(state.endedInsideSubscribe ? " and the end" : "") inside subscribe)"
    }
}

/// Builds a chain's signal. The chain's source sends on `source`, and the second inputs of
/// `concat` and `zip` on `others`, one event per step; without a scheduler, an input sends inside
/// its subscription. The inner signals of `flattenMap` always do, so that the order of their
/// values is known.
private struct SignalBuilder {
    let source: QueueScheduler?
    let others: QueueScheduler?

    func signal(_ chain: Chain) -> Signal<Int, TestError> {
        chain.steps.reduce(signal(chain.source, on: source)) { apply($1, to: $0) }
    }

    private func signal(_ source: Source, on scheduler: QueueScheduler?) -> Signal<Int, TestError> {
        guard let scheduler else { return Self.synchronous(source) }
        return Self.ending(LazyList(source.values).signal(on: scheduler).promoteError(), failing: source.fails)
    }

    /// A signal that sends the source's events inside its subscription, built as its form says.
    private static func synchronous(_ source: Source) -> Signal<Int, TestError> {
        let values = source.values
        switch source.form {
        case 0:
            return Signal { subscriber in
                for value in values { subscriber.sendNext(value) }
                if source.fails { subscriber.sendError(.second) } else { subscriber.sendCompleted() }
                return nil
            }
        case 1:
            return ending(LazyList(values).signal(on: .immediate).promoteError(), failing: source.fails)
        default:
            return ending(Signal.concat(values.map { Signal<Int, TestError>.return($0) }), failing: source.fails)
        }
    }

    private static func ending(_ signal: Signal<Int, TestError>, failing: Bool) -> Signal<Int, TestError> {
        failing ? signal.concat(.error(.first)) : signal
    }

    private func apply(_ step: Step, to signal: Signal<Int, TestError>) -> Signal<Int, TestError> {
        switch step {
        case let .map(transform): return signal.map(transform.apply)
        case let .mapReplace(value): return signal.mapReplace(value)
        case let .filter(predicate): return signal.filter(predicate.test)
        case let .ignore(value): return signal.ignore(value)
        case let .take(count): return signal.take(count)
        case let .skip(count): return signal.skip(count)
        case let .takeWhile(predicate): return signal.take(while: predicate.test)
        case let .takeUntilTrue(predicate): return signal.take(untilTrue: predicate.test)
        case let .skipWhile(predicate): return signal.skip(while: predicate.test)
        case let .skipUntilTrue(predicate): return signal.skip(untilTrue: predicate.test)
        case let .scan(start, combiner): return signal.scan(start, combiner.apply)
        case let .scanWithIndex(start): return signal.scan(start, withIndex: Step.indexedScan)
        case let .combinePrevious(start, combiner): return signal.combinePrevious(start, combiner.apply)
        case .distinctUntilChanged: return signal.distinctUntilChanged()
        case let .distinctUntilChangedModulo(modulus): return signal.distinctUntilChanged(by: Step.sameModulo(modulus))
        case let .startWith(value): return signal.startWith(value)
        case let .concat(source, spelling):
            let other = self.signal(source, on: others)
            return spelling == .method ? signal.concat(other) : Signal.concat([signal, other])
        case let .zip(source, combiner, spelling):
            let other = self.signal(source, on: others)
            switch spelling {
            case .method: return signal.zip(with: other).map { combiner.apply($0.0, $0.1) }
            case .variadic: return Signal.zip(signal, other).map { combiner.apply($0.0, $0.1) }
            case .array: return Signal.zip([signal, other]).map { combiner.apply($0[0], $0[1]) }
            }
        case let .flattenMap(inner):
            let make: @Sendable (Int) -> Signal<Int, TestError> = { Self.synchronous(inner.source(for: $0)) }
            guard inner.nilWhenEmpty else { return signal.flattenMap(make) }
            return signal.flattenMap { (value: Int) -> Signal<Int, TestError>? in inner.returnsNil(for: value) ? nil : make(value) }
        case let .takeUntil(at, firing):
            return Self.triggered(signal, at: at, firing) { $0.take(until: $1) }
        case let .skipUntil(at, firing):
            return Self.triggered(signal, at: at, firing) { $0.skip(until: $1) }
        case let .takeUntilReplacement(replacement, at):
            return Self.replaced(signal, by: replacement, at: at)
        }
    }

    /// `signal.take(untilReplacement:)` whose replacement sends `replacement`'s events when
    /// subscribed for `at == 0`, else as the `at`-th value of `signal` arrives (before it is sent
    /// on) or, if `signal` completes before that, as it completes.
    private static func replaced(_ signal: Signal<Int, TestError>, by replacement: Source, at: Int) -> Signal<Int, TestError> {
        if at == 0 { return signal.take(untilReplacement: synchronous(replacement)) }
        return Signal.defer {
            let (replacing, input) = Signal<Int, TestError>.pipe()
            let seen = Counter()
            let fire: @Sendable () -> Void = {
                for value in replacement.values { input.sendNext(value) }
                if replacement.fails { input.sendError(.second) } else { input.sendCompleted() }
            }
            let counted = signal
                .doNext { _ in
                    seen.increment()
                    if seen.value == at { fire() }
                }
                .doCompleted { if seen.value < at { fire() } }
            return counted.take(untilReplacement: replacing)
        }
    }

    /// `signal` through `operator` with a trigger that fires (as `firing` says) at once when
    /// subscribed for `at == 0`, else as the `at`-th value of `signal` arrives, before it is sent on.
    private static func triggered(
        _ signal: Signal<Int, TestError>,
        at: Int,
        _ firing: Firing,
        _ operator: @escaping @Sendable (Signal<Int, TestError>, Signal<Void, TestError>) -> Signal<Int, TestError>
    ) -> Signal<Int, TestError> {
        if at == 0 {
            switch firing {
            case .next: return `operator`(signal, .return(()))
            case .completed: return `operator`(signal, .empty)
            case .error: return `operator`(signal, .error(.first))
            }
        }
        return Signal.defer {
            // A trigger per subscription, fired from the values that pass.
            let (trigger, input) = Signal<Void, TestError>.pipe()
            let seen = Counter()
            let counted = signal.doNext { _ in
                seen.increment()
                guard seen.value == at else { return }
                switch firing {
                case .next: input.sendNext(())
                case .completed: input.sendCompleted()
                case .error: input.sendError(.first)
                }
            }
            return `operator`(counted, trigger)
        }
    }
}

/// Builds a chain's lazy list, with the errors of its sources left out; `nil` for a chain with an
/// operator `LazyList` lacks.
private enum ListBuilder {
    static func list(_ chain: Chain) -> LazyList<Int>? {
        chain.steps.reduce(list(chain.source)) { list, step in list.flatMap { apply(step, to: $0) } }
    }

    private static func list(_ source: Source) -> LazyList<Int> {
        switch source.form {
        case 0: LazyList(source.values)
        case 1: LazyList(source.values).eagerSequence
        default: LazyList(iterator: source.values.makeIterator())
        }
    }

    private static func apply(_ step: Step, to list: LazyList<Int>) -> LazyList<Int>? {
        switch step {
        case let .map(transform): return list.map(transform.apply)
        case let .mapReplace(value): return list.mapReplace(value)
        case let .filter(predicate): return list.filter(predicate.test)
        case let .ignore(value): return list.ignore(value)
        case let .take(count): return list.take(count)
        case let .skip(count): return list.skip(count)
        case let .takeWhile(predicate): return list.take(while: predicate.test)
        case let .takeUntilTrue(predicate): return list.take(untilTrue: predicate.test)
        case let .skipWhile(predicate): return list.skip(while: predicate.test)
        case let .skipUntilTrue(predicate): return list.skip(untilTrue: predicate.test)
        case let .scan(start, combiner): return list.scan(start, combiner.apply)
        case let .scanWithIndex(start): return list.scan(start, withIndex: Step.indexedScan)
        case let .combinePrevious(start, combiner): return list.combinePrevious(start, combiner.apply)
        case .distinctUntilChanged: return list.distinctUntilChanged()
        case let .distinctUntilChangedModulo(modulus): return list.distinctUntilChanged(by: Step.sameModulo(modulus))
        case let .startWith(value): return list.startWith(value)
        case let .concat(source, spelling):
            let other = self.list(source)
            return spelling == .method ? list.concat(other) : LazyList.concat([list, other])
        case let .zip(source, combiner, spelling):
            let other = self.list(source)
            switch spelling {
            case .method: return list.zip(with: other).map { combiner.apply($0.0, $0.1) }
            case .variadic: return LazyList.zip(list, other).map { combiner.apply($0.0, $0.1) }
            case .array: return LazyList.zip([list, other]).map { combiner.apply($0[0], $0[1]) }
            }
        case let .flattenMap(inner):
            guard inner.nilWhenEmpty else { return list.flattenMap { self.list(inner.source(for: $0)) } }
            return list.flattenMap { (value: Int) -> LazyList<Int>? in inner.returnsNil(for: value) ? nil : self.list(inner.source(for: value)) }
        case .takeUntil, .skipUntil, .takeUntilReplacement:
            return nil
        }
    }
}
