import Disposables
import Schedulers
import Signals
import TestSupport
import XCTest

/// The contract every one-input operator keeps, checked for each row of `operators`: a row
/// applies one operator to a `Signal<Int, TestError>` and returns a `Signal<Int, TestError>`, and
///
/// - passes the values 1, 2, 3 and completion through unchanged, synchronously, in the
///   subscribing call: from a cold source that sends 1, 2, 3 then completes, exactly
///   `[.next(1), .next(2), .next(3), .completed]`. An operator that adds, drops or changes values
///   is applied in a form that undoes it (`startWith(0).skip(1)`; `map { $0 > 1 }.not()` then a
///   `scan` that counts the values, 1, 2, 3; a timed one with a scheduler on which it need not
///   wait: `Scheduler.immediate`, or a `TestScheduler` that never moves);
/// - passes an error through: `[.error(.first)]` from a source that only fails, and
///   `[.next(1), .error(.second)]` from one that sends 1 then fails;
/// - completes an empty source: `[.completed]`;
/// - once its subscriber is disposed after the first value, disposes its source exactly once and
///   sends nothing more (the source's later 2 and completion do not arrive);
/// - keeps nothing of the chain alive, closures included, once the source has completed, or once
///   the subscription is disposed (each row's closures capture the `LifetimeToken` they are
///   given, so that the check sees them);
/// - reports its subscription disposed once it has ended: completed synchronously, completed
///   later, or failed;
/// - stops at once when its subscriber disposes the subscription inside a value's callback: no
///   later value or completion reaches it;
/// - joins its subscriber's disposable before the first value, so that disposing inside that
///   value stops a source that resubscribes synchronously (`repeat()` of a source that sends 1
///   and completes) after one subscription.
///
/// OperatorContractCoverageTests (in SignalsTests) fails for a public one-input operator of
/// `Signal` that no row calls and that its `exempt` list does not give a reason for.
final class OperatorContractTests: LeakCheckedTestCase {
    override class func setUp() {
        super.setUp()
        // Made outside any test's leak check: the live input of its lifetime's pipe counts as a
        // subscription for as long as it lives, which is as long as the tests.
        _ = contractLifetime
    }

    override func setUp() {
        super.setUp()
        // The log operators' rows write a line per event: kept out of the test output.
        SignalLog.sink = { _ in }
    }

    override func tearDown() {
        SignalLog.sink = SignalLog.standardError
        super.tearDown()
    }

    /// Each operator, applied so that it passes the values 1, 2, 3 on (for the first value on).
    private let operators: [(name: String, apply: @Sendable (Signal<Int, TestError>, LifetimeToken) -> Signal<Int, TestError>)] = [
        ("map", { signal, token in signal.map { _ = token; return $0 } }),
        ("filter", { signal, token in signal.filter { _ = token; return $0 > 0 } }),
        ("ignore", { signal, _ in signal.ignore(-1) }),
        ("skip", { signal, _ in signal.startWith(0).skip(1) }),
        ("skip(while:)", { signal, token in signal.skip(while: { _ = token; return $0 < 1 }) }),
        ("skip(untilTrue:)", { signal, token in signal.skip(untilTrue: { _ = token; return $0 >= 1 }) }),
        ("take", { signal, _ in signal.take(100) }),
        ("take(while:)", { signal, token in signal.take(while: { _ = token; return $0 < 100 }) }),
        ("take(untilTrue:)", { signal, token in signal.take(untilTrue: { _ = token; return $0 >= 100 }) }),
        ("scan", { signal, token in signal.scan(0) { _, value in _ = token; return value } }),
        ("combinePrevious", { signal, token in signal.combinePrevious(0) { _, value in _ = token; return value } }),
        ("distinctUntilChanged", { signal, token in signal.distinctUntilChanged { _, _ in _ = token; return false } }),
        ("startWith", { signal, _ in signal.startWith(1).skip(1) }),
        ("flattenMap", { signal, token in signal.flattenMap { _ = token; return .return($0) } }),
        ("bind", { signal, token in signal.bind { { value, _ in _ = token; return .return(value) } } }),
        ("concat", { signal, _ in signal.concat(.empty) }),
        ("merge", { signal, _ in signal.merge(.empty) }),
        ("switchToLatest", { signal, token in signal.map { _ = token; return Signal<Int, TestError>.return($0) }.switchToLatest() }),
        ("flatten(maxConcurrent: 1)", { signal, token in signal.map { _ = token; return Signal<Int, TestError>.return($0) }.flatten(maxConcurrent: 1) }),
        ("zip", { signal, _ in Signal.zip([signal]).map { $0[0] } }),
        ("materialize().dematerialize()", { signal, token in signal.map { _ = token; return $0 }.materialize().dematerialize() }),
        ("reduceApply", { signal, token in
            let identity: @Sendable (Int) -> Int = { _ = token; return $0 }
            return signal.map { (identity, $0) }.reduceApply()
        }),
        ("doNext", { signal, token in signal.doNext { _ in _ = token } }),
        ("doError", { signal, token in signal.doError { _ in _ = token } }),
        ("doCompleted", { signal, token in signal.doCompleted { _ = token } }),
        ("initially", { signal, token in signal.initially { _ = token } }),
        ("debug", { signal, token in signal.debug("contract", to: { _ in _ = token }) }),
        ("finally", { signal, token in signal.finally { _ = token } }),
        ("throttle(_:on:valuesPassing:)", { signal, token in signal.throttle(1, on: TestScheduler(), valuesPassing: { _ in _ = token; return false }) }),
        ("delay(_:on:)", { signal, _ in signal.delay(0, on: Scheduler.immediate) }),
        ("timeout(_:on:raising:)", { signal, _ in signal.timeout(60, on: TestScheduler(), raising: .second) }),
        ("deliver(on:)", { signal, _ in signal.deliver(on: Scheduler.immediate) }),
        ("deliverOnMainThread", { signal, _ in signal.deliverOnMainThread() }),
        ("subscribe(on:)", { signal, _ in signal.subscribe(on: Scheduler.immediate) }),
        ("combineLatest", { signal, _ in Signal.combineLatest([signal]).map { $0[0] } }),
        ("take(until:)", { signal, _ in signal.take(until: Signal<Int, Never>.never) }),
        ("take(during:)", { signal, _ in signal.take(during: contractLifetime.lifetime) }),
        ("skip(until:)", { signal, token in signal.skip(until: Signal<Void, Never>.empty.map { _ = token }) }),
        ("ignoreNil", { signal, token in signal.map { _ = token; return Optional($0) }.ignoreNil() }),
        ("compactMap", { signal, token in signal.compactMap { _ = token; return Optional($0) } }),
        ("withLatestFrom", { signal, token in signal.withLatestFrom(Signal<Int, TestError>.return(0)) { value, _ in _ = token; return value } }),
        ("flatMapLatest", { signal, token in signal.flatMapLatest { _ = token; return .return($0) } }),
        ("buffer(count:)", { signal, token in signal.buffer(count: 1).map { _ = token; return $0[0] } }),
        ("buffer(count:interval:on:)", { signal, token in signal.buffer(count: 1, interval: 1, on: TestScheduler()).map { _ = token; return $0[0] } }),
        ("catch", { signal, token in signal.catch { _ = token; return .error($0) } }),
        ("try", { signal, token in signal.try { _ in _ = token } }),
        ("tryMap", { signal, token in signal.tryMap { _ = token; return $0 } }),
        ("mapError", { signal, token in signal.mapError { _ = token; return $0 } }),
        ("distinctUntilChanged()", { signal, _ in signal.distinctUntilChanged() }),
        ("withLatestFrom(_:)", { signal, token in signal.withLatestFrom(Signal<Int, TestError>.return(0)).map { _ = token; return $0.0 } }),
        ("flatten()", { signal, token in signal.map { _ = token; return Signal<Int, TestError>.return($0) }.flatten() }),
        ("concat()", { signal, token in signal.map { _ = token; return Signal<Int, TestError>.return($0) }.concat() }),
        // Operators that change the values, then a scan that counts them: 1, 2, 3 again.
        ("mapReplace", { signal, token in signal.mapReplace(0).scan(0) { count, _ in _ = token; return count + 1 } }),
        ("not", { signal, token in signal.map { $0 > 1 }.not().scan(0) { count, _ in _ = token; return count + 1 } }),
        ("and", { signal, token in signal.map { [$0 > 1, true] }.and().scan(0) { count, _ in _ = token; return count + 1 } }),
        ("or", { signal, token in signal.map { [$0 > 1, false] }.or().scan(0) { count, _ in _ = token; return count + 1 } }),
        ("reduceEach", { signal, token in signal.map { ($0, 0) }.reduceEach { value, _ in _ = token; return value } }),
        // Errors made `any Error` or events, and back: the error still passes through.
        ("promoteError", { signal, token in signal.map { _ = token; return $0 }.materialize().promoteError(TestError.self).dematerialize() }),
        ("timeout(_:on:)", { signal, token in
            signal.mapError { error -> any Error in _ = token; return error }
                .timeout(60, on: TestScheduler())
                .mapError { ($0 as? TestError) ?? .second }
        }),
        ("throttle(_:valuesPassing:)", { signal, token in signal.throttle(1, valuesPassing: { _ in _ = token; return false }) }),
        ("logAll", { signal, _ in signal.logAll() }),
        ("logNext", { signal, _ in signal.logNext() }),
        ("logError", { signal, _ in signal.logError() }),
        ("logCompleted", { signal, _ in signal.logCompleted() }),
    ]

    func testEveryOperator_passesValuesAndCompletion() {
        for (name, apply) in operators {
            let recorder = apply(TestSource([1, 2, 3]).signal, LifetimeToken()).record()
            XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed], name)
        }
    }

    func testEveryOperator_errorAtTheStart() {
        for (name, apply) in operators {
            let recorder = apply(TestSource<Int>([], end: .error(.first)).signal, LifetimeToken()).record()
            XCTAssertEqual(recorder.events, [.error(.first)], name)
        }
    }

    func testEveryOperator_errorInTheMiddle() {
        for (name, apply) in operators {
            let recorder = apply(TestSource([1], end: .error(.second)).signal, LifetimeToken()).record()
            XCTAssertEqual(recorder.events, [.next(1), .error(.second)], name)
        }
    }

    func testEveryOperator_emptySource() {
        for (name, apply) in operators {
            XCTAssertEqual(apply(TestSource<Int>([]).signal, LifetimeToken()).record().events, [.completed], name)
        }
    }

    func testEveryOperator_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        for (name, apply) in operators {
            let source = DrivenSource<TestError>()
            let recorder = apply(source.signal, LifetimeToken()).record()
            source.input.sendNext(1)
            recorder.dispose()
            source.input.sendNext(2)
            source.input.sendCompleted()
            XCTAssertEqual(recorder.events, [.next(1)], name)
            XCTAssertEqual(source.disposals.value, 1, name)
        }
    }

    func testEveryOperator_releasesTheChainAfterCompletion() {
        for (name, apply) in operators {
            weak var weakSignal: Signal<Int, TestError>?
            let (recorder, token) = trackingLifetime { token -> EventRecorder<Int, TestError> in
                let signal = apply(TestSource([1]).signal, token)
                weakSignal = signal
                return signal.record()
            }
            XCTAssertEqual(recorder.values, [1], name)
            XCTAssertNil(weakSignal, name)
            XCTAssertFalse(token.isAlive, name)
        }
    }

    func testEveryOperator_releasesTheChainAfterDisposal() {
        for (name, apply) in operators {
            let (pipe, input) = Signal<Int, TestError>.pipe()
            let (recorder, token) = trackingLifetime { token in apply(pipe, token).record() }
            input.sendNext(1)
            recorder.dispose()
            XCTAssertFalse(token.isAlive, name)
            _ = input
        }
    }

    func testEveryOperator_subscriptionReportsDisposedOnceEnded() {
        for (name, apply) in operators {
            XCTAssertTrue(apply(TestSource([1]).signal, LifetimeToken()).subscribe().isDisposed, "\(name), completed")
            let (pipe, input) = Signal<Int, TestError>.pipe()
            let completed = apply(pipe, LifetimeToken()).subscribe()
            input.sendNext(1)
            input.sendCompleted()
            XCTAssertTrue(completed.isDisposed, "\(name), completed later")
            let (failing, failingInput) = Signal<Int, TestError>.pipe()
            let failed = apply(failing, LifetimeToken()).subscribe()
            failingInput.sendError(.first)
            XCTAssertTrue(failed.isDisposed, "\(name), failed")
        }
    }

    func testEveryOperator_disposingInsideACallbackStopsEverythingAfterIt() {
        for (name, apply) in operators {
            let (pipe, input) = Signal<Int, TestError>.pipe()
            let recorder = Recorder<Event<Int, TestError>>()
            let box = DisposableBox()
            box.disposable = apply(pipe, LifetimeToken()).subscribe(next: { value in
                recorder.record(.next(value))
                box.disposable?.dispose()
            }, error: { recorder.record(.error($0)) }, completed: { recorder.record(.completed) })
            input.sendNext(1)
            input.sendNext(2)
            input.sendCompleted()
            XCTAssertEqual(recorder.values, [.next(1)], name)
            XCTAssertTrue(box.disposable?.isDisposed ?? false, name)
        }
    }

    func testEveryOperator_disposingInsideTheFirstValueStopsARepeatingSynchronousSource() {
        // The source subscribes again inside the subscribing call, so the operator's subscription
        // to it must join the subscriber's disposable before the first value, not when it returns
        // (which, for a loop nothing stops, it never does).
        for (name, apply) in operators {
            let source = SelfLimitingSource()
            let values = Counter()
            let subscription = apply(source.signal.repeat(), LifetimeToken()).subscribeDisposingInFirstValue(counting: values)
            XCTAssertEqual(values.value, 1, name)
            XCTAssertEqual(source.subscriptions.value, 1, name)
            XCTAssertTrue(subscription.isDisposed, name)
        }
    }
}

/// A lifetime that lasts as long as the tests: its token is never released.
private let contractLifetime = Lifetime.make()
