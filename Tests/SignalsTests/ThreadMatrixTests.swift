import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import Tuples
import XCTest

/// The thread matrix: every public operator subscribed from every thread context, over a
/// synchronous and a hot source, then disposed from another thread, disposed inside its own
/// callback, and let go of (see `ThreadMatrix` for what each round checks).
///
/// The synchronous source sends 1, 2, 3 and completes from its create block; the hot source is a
/// pipe into which the context sends 1, 2, 3 after subscribing, and which never ends. `sync` and
/// `hot` are the exact events each must give; `nil` where they depend on timing.
///
/// The constructors that take no source (`Signal.interval`, the marble signals of a
/// `TestScheduler`) are inner signals of `flattenMap`, one per value of the source. The blocking
/// forms (`first()`, `toArray()`, `waitUntilCompleted()`…) wait rather than subscribe: their rows
/// make the blocking call in the context, over the synchronous source (the hot one sends only
/// once the call has returned), and send its answer, let go of; the asynchronous forms also wait
/// for nothing over the hot source, with a timeout of zero. Not here: precondition failures.
///
/// The rows of conveniences, blocking forms, names and signals made without a source run
/// `ThreadMatrix.lightRounds` per cell in modes (a)-(c): they deliver through operators that the
/// other rows run through the full count.
final class ThreadMatrixTests: LeakCheckedTestCase {
    override func setUp() {
        super.setUp()
        SignalLog.sink = { _ in }
    }

    override func tearDown() {
        SignalLog.sink = SignalLog.standardError
        super.tearDown()
    }

    func testValueOperators() {
        assertMatrix([
            row("map", { $0.map { $0 * 10 } },
                sync: [.next(10), .next(20), .next(30), .completed], hot: [.next(10), .next(20), .next(30)]),
            row("mapReplace", { $0.mapReplace(7) },
                sync: [.next(7), .next(7), .next(7), .completed], hot: [.next(7), .next(7), .next(7)]),
            row("filter", { $0.filter { $0 != 2 } },
                sync: [.next(1), .next(3), .completed], hot: [.next(1), .next(3)]),
            row("ignore", { $0.ignore(2) },
                sync: [.next(1), .next(3), .completed], hot: [.next(1), .next(3)]),
            row("ignoreValues", { $0.ignoreValues() },
                sync: [.completed], hot: []),
            row("ignoreNil", { $0.map { $0 == 2 ? nil : $0 }.ignoreNil() },
                sync: [.next(1), .next(3), .completed], hot: [.next(1), .next(3)]),
            row("compactMap", { $0.compactMap { $0 == 2 ? nil : $0 * 10 } },
                sync: [.next(10), .next(30), .completed], hot: [.next(10), .next(30)]),
            row("buffer(count:)", { $0.buffer(count: 2) },
                sync: [.next([1, 2]), .next([3]), .completed], hot: [.next([1, 2])]),
            row("scan", { $0.scan(0, +) },
                sync: [.next(1), .next(3), .next(6), .completed], hot: [.next(1), .next(3), .next(6)]),
            row("scan(withIndex:)", { $0.scan(0, withIndex: { running, value, index in running + value * index }) },
                sync: [.next(0), .next(2), .next(8), .completed], hot: [.next(0), .next(2), .next(8)]),
            row("combinePrevious", { $0.combinePrevious(0) { previous, current in previous * 10 + current } },
                sync: [.next(1), .next(12), .next(23), .completed], hot: [.next(1), .next(12), .next(23)]),
            row("scan(into:)", { $0.scan(into: 0) { running, value in running += value } },
                sync: [.next(1), .next(3), .next(6), .completed], hot: [.next(1), .next(3), .next(6)]),
            row("combinePrevious(_:)", { $0.combinePrevious(0).map { $0.previous * 10 + $0.current } },
                sync: [.next(1), .next(12), .next(23), .completed], hot: [.next(1), .next(12), .next(23)]),
            row("reduceEach", { $0.map { ($0, $0 * 10) }.reduceEach { $0 + $1 } },
                sync: [.next(11), .next(22), .next(33), .completed], hot: [.next(11), .next(22), .next(33)]),
            row("reduceApply", { $0.map { value in (addOne, value) }.reduceApply() },
                sync: [.next(2), .next(3), .next(4), .completed], hot: [.next(2), .next(3), .next(4)]),
            row("distinctUntilChanged", { $0.map { $0 / 2 }.distinctUntilChanged() },
                sync: [.next(0), .next(1), .completed], hot: [.next(0), .next(1)]),
            row("distinctUntilChanged(by:)", { $0.distinctUntilChanged(by: { $0 / 2 == $1 / 2 }) },
                sync: [.next(1), .next(2), .completed], hot: [.next(1), .next(2)]),
            row("materialize", { $0.materialize() },
                sync: [.next(.next(1)), .next(.next(2)), .next(.next(3)), .next(.completed), .completed],
                hot: [.next(.next(1)), .next(.next(2)), .next(.next(3))]),
            row("dematerialize", { $0.materialize().dematerialize() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("not", { $0.map { $0 % 2 == 0 }.not() },
                sync: [.next(true), .next(false), .next(true), .completed], hot: [.next(true), .next(false), .next(true)]),
            row("and of arrays", { $0.map { [$0 > 1, $0 > 2] }.and() },
                sync: [.next(false), .next(false), .next(true), .completed], hot: [.next(false), .next(false), .next(true)]),
            row("or of tuples", { $0.map { Tuple($0 > 1, $0 > 2) }.or() },
                sync: [.next(false), .next(true), .next(true), .completed], hot: [.next(false), .next(true), .next(true)]),
            row("aggregate", { $0.aggregate(0, +) },
                sync: [.next(6), .completed], hot: []),
            row("aggregate(withIndex:)", { $0.aggregate(0, withIndex: { running, value, index in running + value * index }) },
                sync: [.next(8), .completed], hot: []),
            row("aggregate(startFactory:)", { $0.aggregate(startFactory: { [Int]() }, { $0 + [$1] }) },
                sync: [.next([1, 2, 3]), .completed], hot: []),
            row("collect", { $0.collect() },
                sync: [.next([1, 2, 3]), .completed], hot: []),
            row("replaceEmpty(with:)", { $0.replaceEmpty(with: 9) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("replaceEmpty(with:), an empty source", { $0.filter { $0 > 3 }.replaceEmpty(with: 9) },
                sync: [.next(9), .completed], hot: []),
            row("any", { $0.any() },
                sync: [.next(true), .completed], hot: [.next(true), .completed]),
            row("any(_:)", { $0.any { $0 > 2 } },
                sync: [.next(true), .completed], hot: [.next(true), .completed]),
            row("all(_:), all pass", { $0.all { $0 > 0 } },
                sync: [.next(true), .completed], hot: []),
            row("all(_:), one fails", { $0.all { $0 < 2 } },
                sync: [.next(false), .completed], hot: [.next(false), .completed]),
        ])
    }

    func testFilteringOperators() {
        assertMatrix([
            row("take", { $0.take(2) },
                sync: [.next(1), .next(2), .completed], hot: [.next(1), .next(2), .completed]),
            row("take(0)", { $0.take(0) },
                sync: [.completed], hot: [.completed]),
            row("take(last:)", { $0.take(last: 2) },
                sync: [.next(2), .next(3), .completed], hot: []),
            row("take(while:)", { $0.take(while: { $0 < 3 }) },
                sync: [.next(1), .next(2), .completed], hot: [.next(1), .next(2), .completed]),
            row("take(untilTrue:)", { $0.take(untilTrue: { $0 == 2 }) },
                sync: [.next(1), .completed], hot: [.next(1), .completed]),
            row("take(until:), a trigger that never fires", { $0.take(until: Signal<Void, Never>.never) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("take(until:), a trigger that fires at once", { $0.take(until: Signal<Void, Never>.return(())) },
                sync: [.completed], hot: [.completed]),
            // The source's subscription keeps the token: the lifetime ends as the matrix lets go
            // of the hot source, and the subscription, which it would otherwise keep, completes.
            row("take(during:), a lifetime kept by the source's subscription", { source in
                let (lifetime, token) = Lifetime.make()
                return source.doNext { _ in withExtendedLifetime(token) {} }.take(during: lifetime)
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3), .completed]).endingOnlyWhenLetGo(),
            row("take(during:), an ended lifetime", { $0.take(during: .empty) },
                sync: [.completed], hot: [.completed]),
            row("take(during:), a lifetime ended by the source's second value", { source in
                Signal { subscriber in
                    let (lifetime, token) = Lifetime.make()
                    let holder = TokenHolder(consume token)
                    return source.doNext { if $0 == 2 { holder.release() } }.take(during: lifetime).subscribe(subscriber)
                }
            }, sync: [.next(1), .completed], hot: [.next(1), .completed]),
            row("take(untilReplacement:), never", { $0.take(untilReplacement: .never) },
                sync: [.next(1), .next(2), .next(3)], hot: [.next(1), .next(2), .next(3)]),
            row("take(untilReplacement:), at once", { $0.take(untilReplacement: .return(9)) },
                sync: [.next(9), .completed], hot: [.next(9), .completed]),
            row("skip", { $0.skip(1) },
                sync: [.next(2), .next(3), .completed], hot: [.next(2), .next(3)]),
            row("skip(while:)", { $0.skip(while: { $0 < 2 }) },
                sync: [.next(2), .next(3), .completed], hot: [.next(2), .next(3)]),
            row("skip(untilTrue:)", { $0.skip(untilTrue: { $0 == 2 }) },
                sync: [.next(2), .next(3), .completed], hot: [.next(2), .next(3)]),
            row("skip(until:), a trigger that never fires", { $0.skip(until: Signal<Void, Never>.never) },
                sync: [.completed], hot: []),
            row("skip(until:), a trigger that fires at once", { $0.skip(until: Signal<Void, Never>.return(())) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("startWith", { $0.startWith(0) },
                sync: [.next(0), .next(1), .next(2), .next(3), .completed], hot: [.next(0), .next(1), .next(2), .next(3)]),
        ])
    }

    func testCombiningOperators() {
        assertMatrix([
            row("concat(_:)", { $0.concat(.return(9)) },
                sync: [.next(1), .next(2), .next(3), .next(9), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("Signal.concat", { Signal.concat([$0, .return(9)]) },
                sync: [.next(1), .next(2), .next(3), .next(9), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("merge(_:)", { $0.merge(.return(9)) },
                sync: [.next(1), .next(2), .next(3), .next(9), .completed], hot: [.next(9), .next(1), .next(2), .next(3)]),
            row("Signal.merge with never", { Signal.merge([$0, .never]) },
                sync: [.next(1), .next(2), .next(3)], hot: [.next(1), .next(2), .next(3)]),
            row("zip(with:)", { $0.zip(with: .return(9)).map { $0 * 10 + $1 } },
                sync: [.next(19), .completed], hot: [.next(19), .completed]),
            row("Signal.zip of a pack", { Signal.zip($0, $0.map { $0 * 10 }).map { $0 + $1 } },
                sync: [.next(11), .next(22), .next(33), .completed], hot: [.next(11), .next(22), .next(33)]),
            row("Signal.zip of an array", { Signal.zip([$0, $0.map { $0 * 10 }]).map { $0.reduce(0, +) } },
                sync: [.next(11), .next(22), .next(33), .completed], hot: [.next(11), .next(22), .next(33)]),
            row("combineLatest(with:)", { $0.combineLatest(with: .return(9)).map { $0 * 10 + $1 } },
                sync: [.next(39), .completed], hot: [.next(19), .next(29), .next(39)]),
            row("Signal.combineLatest of a pack", { Signal.combineLatest($0, Signal.return(9)).map { $0 * 10 + $1 } },
                sync: [.next(39), .completed], hot: [.next(19), .next(29), .next(39)]),
            row("Signal.combineLatest of an array", { Signal.combineLatest([$0, .return(9)]).map { $0.reduce(0, +) } },
                sync: [.next(12), .completed], hot: [.next(10), .next(11), .next(12)]),
            row("sample", { $0.sample($0) },
                sync: [.completed], hot: [.next(1), .next(2), .next(3)]),
            row("withLatestFrom(_:)", { $0.withLatestFrom(.return(9)).map { $0 * 10 + $1 } },
                sync: [.next(19), .next(29), .next(39), .completed], hot: [.next(19), .next(29), .next(39)]),
            // Other is the source itself, subscribed first: over the hot source, each value reaches
            // it before the source's own subscription.
            row("withLatestFrom(_:_:) of itself", { $0.withLatestFrom($0) { $0 * 10 + $1 } },
                sync: [.next(13), .next(23), .next(33), .completed], hot: [.next(11), .next(22), .next(33)]),
            row("then", { $0.then { .return(9) } },
                sync: [.next(9), .completed], hot: []),
        ])
    }

    func testHigherOrderOperators() {
        assertMatrix([
            row("bind", { $0.bind { { value, stop in
                if value == 2 { stop = true }
                return .return(value * 10)
            } } },
                sync: [.next(10), .next(20), .completed], hot: [.next(10), .next(20), .completed]),
            row("flattenMap", { $0.flattenMap { Signal.return($0 * 10) } },
                sync: [.next(10), .next(20), .next(30), .completed], hot: [.next(10), .next(20), .next(30)]),
            row("flattenMap to nil", { $0.flattenMap { value -> Signal<Int, TestError>? in value == 2 ? nil : .return(value) } },
                sync: [.next(1), .next(3), .completed], hot: [.next(1), .next(3)]),
            row("flatten", { $0.map { Signal<Int, TestError>.return($0) }.flatten() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("flatten(maxConcurrent:)", { $0.map { Signal.concat([.return($0), .return($0 * 10)]) }.flatten(maxConcurrent: 1) },
                sync: [.next(1), .next(10), .next(2), .next(20), .next(3), .next(30), .completed],
                hot: [.next(1), .next(10), .next(2), .next(20), .next(3), .next(30)]),
            row("concat of signals", { $0.map { Signal<Int, TestError>.return($0) }.concat() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            // With the hot source, where no scheduler is current, each inner `return` subscribes on
            // the subscription scheduler's background queue, so a later value may replace it
            // before it sends: which values get through depends on timing.
            row("switchToLatest", { $0.map { Signal<Int, TestError>.return($0) }.switchToLatest() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: nil),
            row("flatMapLatest", { $0.flatMapLatest { Signal<Int, TestError>.return($0 * 10) } },
                sync: [.next(10), .next(20), .next(30), .completed], hot: nil),
            row("Signal.if", { Signal.if($0.map { $0 % 2 == 1 }, then: .return(1), else: .return(0)) },
                sync: [.next(1), .next(0), .next(1), .completed], hot: nil),
            row("Signal.switch", { Signal.switch($0, cases: [1: .return(10), 2: .return(20)], default: .return(0)) },
                sync: [.next(10), .next(20), .next(0), .completed], hot: nil),
            row("Signal.try inside flattenMap", { $0.flattenMap { value in Signal.try { () throws(TestError) in value * 10 } } },
                sync: [.next(10), .next(20), .next(30), .completed], hot: [.next(10), .next(20), .next(30)]),
            row("Signal.defer", { source in Signal.defer { source } },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("Signal.startLazily", { source in Signal.startLazily(on: ThreadMatrix.queue) { source.subscribe($0) } },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("Signal.startEagerly", { source in Signal.startEagerly(on: ThreadMatrix.queue) { source.subscribe($0) } },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
        ])
    }

    func testErrorOperators() {
        assertMatrix([
            row("tryMap", { $0.tryMap(failingAtThree) },
                sync: [.next(10), .next(20), .error(.second)], hot: [.next(10), .next(20), .error(.second)]),
            row("try", { $0.try { value throws(TestError) in if value == 2 { throw .first } } },
                sync: [.next(1), .error(.first)], hot: [.next(1), .error(.first)]),
            row("mapError", { $0.tryMap(failingAtThree).mapError { _ in TestError.first } },
                sync: [.next(10), .next(20), .error(.first)], hot: [.next(10), .next(20), .error(.first)]),
            row("catch", { $0.tryMap(failingAtThree).catch { _ in .return(9) } },
                sync: [.next(10), .next(20), .next(9), .completed], hot: [.next(10), .next(20), .next(9), .completed]),
            row("catch to another failure type", { $0.tryMap(failingAtThree).catch { _ in Signal<Int, Never>.return(9) } },
                sync: [.next(10), .next(20), .next(9), .completed], hot: [.next(10), .next(20), .next(9), .completed]),
            row("catch(to:)", { $0.tryMap(failingAtThree).catch(to: .return(9)) },
                sync: [.next(10), .next(20), .next(9), .completed], hot: [.next(10), .next(20), .next(9), .completed]),
            row("retry(_:)", { $0.tryMap(failingAtThree).retry(2) },
                sync: [.next(10), .next(20), .next(10), .next(20), .next(10), .next(20), .error(.second)],
                hot: [.next(10), .next(20)]),
            // The resubscriptions wait on the clock, which the matrix moves on once the source has
            // sent everything; the hot source sends nothing to the later subscriptions.
            row("retry(_:delay:on:)", { $0.tryMap(failingAtThree).retry(2, delay: .exponential(initial: 1), on: ThreadMatrix.clock) },
                sync: [.next(10), .next(20), .next(10), .next(20), .next(10), .next(20), .error(.second)],
                hot: [.next(10), .next(20)]),
            row("retry(_:delay:on:) on immediate", { $0.tryMap(failingAtThree).retry(2, delay: .constant(0), on: .immediate) },
                sync: [.next(10), .next(20), .next(10), .next(20), .next(10), .next(20), .error(.second)],
                hot: [.next(10), .next(20)]),
            row("retry() with take", { $0.tryMap(failingAtThree).retry().take(5) },
                sync: [.next(10), .next(20), .next(10), .next(20), .next(10), .completed], hot: [.next(10), .next(20)]),
            row("repeat with take", { $0.repeat().take(7) },
                sync: [.next(1), .next(2), .next(3), .next(1), .next(2), .next(3), .next(1), .completed],
                hot: [.next(1), .next(2), .next(3)]),
            row("any after an error", { $0.tryMap(failingAtThree).any { $0 > 20 } },
                sync: [.next(false), .completed], hot: [.next(false), .completed]),
        ])
    }

    func testSchedulingAndTimeOperators() {
        assertMatrix([
            row("deliver(on:)", { $0.deliver(on: ThreadMatrix.queue) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("deliverOnMainThread", { $0.deliverOnMainThread() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("subscribe(on:)", { $0.subscribe(on: ThreadMatrix.queue) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            // delay keeps the source's order and drops nothing, whatever the dates.
            row("delay(_:on:)", { $0.delay(0.000_1, on: ThreadMatrix.queue) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("delay(_:) on the current scheduler", { $0.delay(0.000_1) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("throttle(_:on:)", { $0.throttle(1, on: ThreadMatrix.clock) },
                sync: [.next(3), .completed], hot: [.next(3)]),
            row("throttle(_:on:valuesPassing:)", { $0.throttle(1, on: ThreadMatrix.clock, valuesPassing: { $0 != 2 }) },
                sync: [.next(2), .next(3), .completed], hot: [.next(2), .next(3)]),
            // The first value leaves at once; 2 and 3 wait for the window's end (the clock's move,
            // for the hot source), or for completion, which sends the latest first.
            row("rateLimit(_:on:latest:)", { $0.rateLimit(1, on: ThreadMatrix.clock) },
                sync: [.next(1), .next(3), .completed], hot: [.next(1), .next(3)]),
            row("rateLimit(_:on:latest:) keeping the first", { $0.rateLimit(1, on: ThreadMatrix.clock, latest: false) },
                sync: [.next(1), .completed], hot: [.next(1)]),
            // The first value leaves at once; 2 and 3 wait, one interval each, for the clock's
            // move, and the synchronous source's completion waits behind them.
            row("pace(_:on:)", { $0.pace(1, on: ThreadMatrix.clock) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            // One value may wait: 3 finds 2 waiting, and is dropped, replaces it, or fails.
            row("pace(_:on:bufferingAtMost:whenFull:) dropping the newest", { $0.pace(1, on: ThreadMatrix.clock, bufferingAtMost: 1, whenFull: .dropNewest) },
                sync: [.next(1), .next(2), .completed], hot: [.next(1), .next(2)]).inRounds(ThreadMatrix.lightRounds),
            row("pace(_:on:bufferingAtMost:whenFull:) dropping the oldest", { $0.pace(1, on: ThreadMatrix.clock, bufferingAtMost: 1, whenFull: .dropOldest) },
                sync: [.next(1), .next(3), .completed], hot: [.next(1), .next(3)]).inRounds(ThreadMatrix.lightRounds),
            row("pace(_:on:bufferingAtMost:whenFull:) failing", { $0.pace(1, on: ThreadMatrix.clock, bufferingAtMost: 1, whenFull: .fail(.second)) },
                sync: [.next(1), .error(.second)], hot: [.next(1), .error(.second)]).inRounds(ThreadMatrix.lightRounds),
            // A real interval on the current (or a background) scheduler: the values depend on timing.
            row("throttle(_:) on the current scheduler", { $0.throttle(0.001) },
                sync: nil, hot: nil),
            row("buffer", { $0.buffer(1, on: ThreadMatrix.clock) },
                sync: [.next([1, 2, 3]), .completed], hot: [.next([1, 2, 3])]),
            row("buffer(count:interval:on:)", { $0.buffer(count: 2, interval: 1, on: ThreadMatrix.clock) },
                sync: [.next([1, 2]), .next([3]), .completed], hot: [.next([1, 2]), .next([3])]),
            row("timeout(_:on:raising:)", { $0.timeout(60, on: ThreadMatrix.clock, raising: .second) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3), .error(.second)]),
            row("timeout(_:on:)", { $0.mapError { _ in SignalError.timedOut }.timeout(60, on: ThreadMatrix.clock) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3), .error(.timedOut)]),
        ])
    }

    func testSideEffectOperators() {
        assertMatrix([
            row("doNext", { $0.doNext { _ in } },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("doError", { $0.tryMap(failingAtThree).doError { _ in } },
                sync: [.next(10), .next(20), .error(.second)], hot: [.next(10), .next(20), .error(.second)]),
            row("doCompleted", { $0.doCompleted {} },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("initially", { $0.initially {} },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("finally", { $0.finally {} },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("debug", { $0.debug("matrix", to: { _ in }) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("logAll", { $0.logAll() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("logNext, logError, logCompleted", { $0.logNext().logError().logCompleted() },
                sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
        ])
    }

    func testOperatorsOnSignalsThatCannotFail() {
        assertMatrix([
            neverFailing("map", { $0.map { $0 * 10 } },
                         sync: [.next(10), .next(20), .next(30), .completed], hot: [.next(10), .next(20), .next(30)]),
            neverFailing("promoteError", { $0.promoteError(TestError.self) },
                         sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            neverFailing("merge", { $0.merge(.return(9)) },
                         sync: [.next(1), .next(2), .next(3), .next(9), .completed], hot: [.next(9), .next(1), .next(2), .next(3)]),
            neverFailing("flattenMap", { $0.flattenMap { Signal.return($0 * 10) } },
                         sync: [.next(10), .next(20), .next(30), .completed], hot: [.next(10), .next(20), .next(30)]),
            neverFailing("take(last:)", { $0.take(last: 1) },
                         sync: [.next(3), .completed], hot: []),
            neverFailing("combineLatest", { $0.combineLatest(with: .return(9)).map { $0 * 10 + $1 } },
                         sync: [.next(39), .completed], hot: [.next(19), .next(29), .next(39)]),
            neverFailing("deliver(on:)", { $0.deliver(on: ThreadMatrix.queue) },
                         sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
        ])
    }

    /// The main-actor subscription and the key-path binding, each wrapped in a created
    /// signal that forwards what reaches its callbacks or its object.
    func testMainActorSubscriptionAndAssign() {
        assertMatrix([
            row("subscribeOnMainActor", { source in
                Signal { subscriber in
                    source.subscribeOnMainActor(
                        next: { subscriber.sendNext($0) },
                        error: { subscriber.sendError($0) },
                        completed: { subscriber.sendCompleted() }
                    )
                }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("subscribeOnActor", { source in
                Signal { subscriber in
                    source.subscribeOnActor(
                        MatrixActor(),
                        next: { _, value in subscriber.sendNext(value) },
                        error: { _, failure in subscriber.sendError(failure) },
                        completed: { _ in subscriber.sendCompleted() }
                    )
                }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            neverFailing("assign(to:on:)", { source in
                Signal { subscriber in
                    let target = ForwardingTarget(subscriber)
                    // The source's completion handler keeps the target, which assign holds weakly.
                    return source.doCompleted { target.complete() }.assign(to: \.value, on: target)
                }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
        ], contexts: MatrixContext.allCases)
    }

    /// The subscription conveniences, each in a created signal that forwards what its closure gets.
    func testSubscriptionConveniences() {
        assertMatrix(light([
            row("subscribeNext and subscribeCompleted", { source in
                Signal<Int, TestError> { subscriber in
                    CompoundDisposable([
                        source.subscribeNext { subscriber.sendNext($0) },
                        source.subscribeCompleted { subscriber.sendCompleted() },
                    ])
                }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("subscribeError", { source in
                Signal<Int, TestError> { subscriber in source.tryMap(failingAtThree).subscribeError { subscriber.sendError($0) } }
            }, sync: [.error(.second)], hot: [.error(.second)]),
        ]))
    }

    /// The main-actor conveniences: `subscribeNextOnMainActor` from every context, and
    /// `assignOnMainActor`, which must be called on the main actor, from the main queue where
    /// the row is made elsewhere.
    func testMainActorConveniences() {
        assertMatrix(light([
            row("subscribeNextOnMainActor", { source in
                Signal<Int, TestError> { subscriber in source.subscribeNextOnMainActor { subscriber.sendNext($0) } }
            }, sync: [.next(1), .next(2), .next(3)], hot: [.next(1), .next(2), .next(3)]),
            neverFailing("assignOnMainActor(to:on:), made on the main actor", { source in
                Signal { subscriber in
                    let binding = SerialDisposable()
                    onTheMainActor {
                        let target = MainActorTarget(subscriber)
                        // assign holds the target weakly: the completion handler keeps it. Its
                        // values come on the main thread already, so assign delivers each at
                        // once, before the next (and the completion) comes.
                        let completing = source.deliverOnMainThread().doCompleted { MainActor.assumeIsolated { target.complete() } }
                        binding.disposable = completing.assignOnMainActor(to: \.value, on: target)
                    }
                    return binding
                }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]).subscribingOnTheMainQueue(),
        ]), contexts: MatrixContext.allCases)
    }

    /// The blocking forms, called in the context over the synchronous source: each row sends what
    /// its calls returned (over the source, over no value, over an error).
    func testBlockingForms() {
        let empty: @Sendable (Signal<Int, TestError>) -> Signal<Int, TestError> = { $0.skip(3) }
        let failing: @Sendable (Signal<Int, TestError>) -> Signal<Int, TestError> = { $0.try(failingAtOne) }
        // Their "subscription" is the call, made and ended in the context: the round lets go of
        // the answer's signal only.
        let letGo = MatrixMode.selected.filter { $0 == .letGo }
        assertMatrix(light([
            blocking("first()", { [try? $0.first(), try? empty($0).first(), try? failing($0).first()] }, [1, nil, nil]),
            blocking("first(default:)", { [$0.first(default: 0), empty($0).first(default: 0), failing($0).first(default: 0)] }, [1, 0, 0]),
            blocking("firstResult()", { [$0.firstResult(), empty($0).firstResult(), failing($0).firstResult()] },
                     [.success(1), .success(nil), .failure(.first)]),
            blocking("waitUntilCompleted()", { [$0.waitUntilCompleted(), failing($0).waitUntilCompleted()].map(answered) },
                     [.success(true), .failure(.first)]),
            blocking("toArray()", { [try? $0.toArray(), try? empty($0).toArray(), try? failing($0).toArray()] }, [[1, 2, 3], [], nil]),
            blocking("asynchronousFirst(default:timeout:)", {
                [$0.asynchronousFirst(default: 0, timeout: MatrixWait.limit), empty($0).asynchronousFirst(default: 0, timeout: MatrixWait.limit),
                 failing($0).asynchronousFirst(default: 0, timeout: MatrixWait.limit)]
            }, [1, 0, 0]),
            blocking("asynchronousFirstResult(timeout:)", {
                [$0.asynchronousFirstResult(timeout: MatrixWait.limit), empty($0).asynchronousFirstResult(timeout: MatrixWait.limit),
                 failing($0).asynchronousFirstResult(timeout: MatrixWait.limit)]
            }, [.success(1), .success(nil), .failure(.first)]),
            blocking("asynchronouslyWaitUntilCompleted(timeout:)", {
                [$0.asynchronouslyWaitUntilCompleted(timeout: MatrixWait.limit), failing($0).asynchronouslyWaitUntilCompleted(timeout: MatrixWait.limit)]
                    .map { $0.map(answered) }
            }, [.success(true), .failure(.first)]),
        ]), sources: [.synchronous], modes: letGo)
        // Over the hot source, which sends only once they have returned, the asynchronous forms
        // time out at once.
        assertMatrix(light([
            blocking("asynchronousFirst(default:timeout: 0), nothing sent", { $0.asynchronousFirst(default: 0, timeout: 0) }, 0),
            blocking("asynchronousFirstResult(timeout: 0), nothing sent", { $0.asynchronousFirstResult(timeout: 0) }, .success(nil)),
            blocking("asynchronouslyWaitUntilCompleted(timeout: 0), nothing sent", {
                $0.asynchronouslyWaitUntilCompleted(timeout: 0).map(answered)
            }, nil),
        ]), sources: [.hot], modes: letGo)
    }

    /// Names kept while `SignalDebug` is on, and the names the operators derive from them, made
    /// in every context; the row's values say whether the names read there were right.
    func testNamedSignalsWithSignalDebugOn() {
        let wasEnabled = SignalDebug.isEnabled
        SignalDebug.isEnabled = true
        defer { SignalDebug.isEnabled = wasEnabled }
        assertMatrix(light([
            row("named(_:), and operators on a named signal", { source in
                let tens = source.named("source").map { $0 * 10 }.named("tens")
                let merged = tens.flattenMap { Signal.return($0) }
                let names = [source.name, tens.name, merged.name]
                let expected: [String?] = ["source", "tens", "[tens] -flattenMap:"]
                return merged.map { names == expected ? $0 : -$0 }
            }, sync: [.next(10), .next(20), .next(30), .completed], hot: [.next(10), .next(20), .next(30)]),
        ]))
    }

    /// Signals that take no source, as the inner signals of `flattenMap`, one per value: the
    /// marble signals of a `TestScheduler` (on the matrix's virtual clock, and hot ones on a
    /// scheduler of their own, run in their create block) and `Signal.interval`.
    func testSignalsMadeWithoutASource() {
        assertMatrix(light([
            // Value 1 through the overload that cannot fail, 3 fails.
            row("TestScheduler.createColdSignal, with and without an error, one per value", { source in
                source.flattenMap { value -> Signal<Int, TestError> in
                    let clock = ThreadMatrix.clock
                    switch value {
                    case 1: return clock.createColdSignal("-a|", values: ["a": value]).promoteError()
                    case 2: return clock.createColdSignal("-a|", values: ["a": value], error: TestError.first)
                    default: return clock.createColdSignal("-#", error: TestError.second)
                    }
                }
            }, sync: [.next(1), .next(2), .error(.second)], hot: [.next(1), .next(2), .error(.second)]),
            // Value 2 through the overload that cannot fail.
            row("TestScheduler.createHotSignal, with and without an error, on a scheduler of its own, one per value", { source in
                source.flattenMap { value -> Signal<Int, TestError> in
                    value == 2
                        ? playedAtOnce { $0.createHotSignal("^-a|", values: ["a": value]) }.promoteError()
                        : playedAtOnce { $0.createHotSignal("^-a|", values: ["a": value], error: TestError.first) }
                }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("TestScheduler.createColdSignal(_:) from timed events, one per value", { source in
                source.flattenMap { value -> Signal<Int, TestError> in
                    ThreadMatrix.clock.createColdSignal([Recorded<Int, TestError>.next(1, value), .completed(1)])
                }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("TestScheduler.createHotSignal(_:) from events at absolute times, on a scheduler of its own, one per value", { source in
                source.flattenMap { value -> Signal<Int, TestError> in
                    playedAtOnce { $0.createHotSignal([Recorded<Int, TestError>.next(1, value), .completed(2)]) }
                }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            row("Signal.return, Signal.empty and Signal.error, one per value", { source in
                source.flattenMap { value -> Signal<Int, TestError> in
                    switch value {
                    case 1: Signal.return(value)
                    case 2: Signal.empty
                    default: Signal.error(.second)
                    }
                }
            }, sync: [.next(1), .error(.second)], hot: [.next(1), .error(.second)]),
            row("Signal.interval(_:on:), its first tick, one per value", { source in
                source.flattenMap { value in
                    Signal<Date, Never>.interval(1, on: ThreadMatrix.clock).take(1).mapReplace(value).promoteError(TestError.self)
                }
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: [.next(1), .next(2), .next(3)]),
            // A real interval on the current (or a background) scheduler: the values depend on timing.
            row("throttle(_:valuesPassing:) on the current scheduler", { $0.throttle(0.001, valuesPassing: { $0 != 2 }) },
                sync: nil, hot: nil),
        ]))
    }
}

/// `rows`, run `ThreadMatrix.lightRounds` per cell in modes (a)-(c) (see the class).
private func light(_ rows: [MatrixRow]) -> [MatrixRow] {
    rows.map { $0.inRounds(ThreadMatrix.lightRounds) }
}

/// A row whose transform makes blocking calls in the context and sends what they returned.
private func blocking<Answer: Equatable & Sendable>(
    _ name: String,
    _ calls: @escaping @Sendable (Signal<Int, TestError>) -> Answer,
    _ expected: Answer
) -> MatrixRow {
    row(name, { source in Signal<Answer, TestError>.return(calls(source)) }, sync: [.next(expected), .completed], hot: [.next(expected), .completed])
}

/// `.success(true)` for `.success`, so that the answer compares.
@Sendable private func answered(_ result: Result<Void, TestError>) -> Result<Bool, TestError> {
    result.map { true }
}

/// A hot signal of a test scheduler of its own, made and subscribed in a created signal's block
/// (with that scheduler current, so at once), then played to its end there.
private func playedAtOnce<Value: Sendable, Failure>(_ make: @escaping @Sendable (TestScheduler) -> TestSignal<Value, Failure>) -> Signal<Value, Failure> {
    Signal { subscriber in
        let scheduler = TestScheduler()
        let hot = make(scheduler)
        var subscription: Disposable?
        scheduler.performAsCurrentScheduler { subscription = hot.subscribe(subscriber) }
        scheduler.run()
        return subscription
    }
}

/// Runs `body` on the main actor: at once on the main thread, else from the main queue.
private func onTheMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
    if Thread.isMainThread {
        MainActor.assumeIsolated { body() }
    } else {
        DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
    }
}

/// A main-actor object whose `value` setter sends what is written to `subscriber`.
@MainActor private final class MainActorTarget {
    private let subscriber: Subscriber<Int, Never>

    init(_ subscriber: Subscriber<Int, Never>) {
        self.subscriber = subscriber
    }

    var value: Int {
        get { 0 }
        set { subscriber.sendNext(newValue) }
    }

    func complete() {
        subscriber.sendCompleted()
    }
}

/// An actor for `subscribeOnActor`'s row to deliver on.
private actor MatrixActor {}

/// An object whose `value` setter sends what is written to `subscriber`.
private final class ForwardingTarget: Sendable {
    private let subscriber: Subscriber<Int, Never>

    init(_ subscriber: Subscriber<Int, Never>) {
        self.subscriber = subscriber
    }

    var value: Int {
        get { 0 }
        set { subscriber.sendNext(newValue) }
    }

    func complete() {
        subscriber.sendCompleted()
    }
}

/// Fails with `.first` at 1.
@Sendable private func failingAtOne(_ value: Int) throws(TestError) {
    if value == 1 { throw .first }
}

/// `value * 10`, failing with `.second` at 3.
@Sendable private func failingAtThree(_ value: Int) throws(TestError) -> Int {
    if value == 3 { throw .second }
    return value * 10
}

@Sendable private func addOne(_ value: Int) -> Int { value + 1 }

/// A row over sources that cannot fail.
private func neverFailing<Value: Equatable & Sendable, Failure: Error & Equatable & Sendable>(
    _ name: String,
    _ transform: @escaping @Sendable (Signal<Int, Never>) -> Signal<Value, Failure>,
    sync: [Event<Value, Failure>]?,
    hot: [Event<Value, Failure>]?
) -> MatrixRow {
    MatrixRow("\(name) (cannot fail)", transform, sync: sync, hot: hot)
}

extension XCTestCase {
    /// Runs the matrix over `rows` and fails once for each failing cell, naming it.
    func assertMatrix(
        _ rows: [MatrixRow],
        contexts: [MatrixContext] = MatrixContext.threadContexts,
        sources: [MatrixSource] = MatrixSource.allCases,
        modes: [MatrixMode] = MatrixMode.selected,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        for failure in ThreadMatrix.failures(of: rows, contexts: contexts, sources: sources, modes: modes) {
            XCTFail(failure, file: file, line: line)
        }
    }
}
