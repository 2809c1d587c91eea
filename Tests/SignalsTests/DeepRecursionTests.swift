import Disposables
import Schedulers
import Signals
import TestSupport
import XCTest

/// Signal counts that would overflow the stack if each signal nested a call.
final class DeepRecursionTests: LeakCheckedTestCase {
    /// How deep the paging signals below go: fifty thousand levels overflowed even the 8 MiB main
    /// thread when each level's disposal nested a call. Debug builds (the sanitizer runs) use ten
    /// thousand: their frames are larger, and three thousand overflowed the 512 KiB stack.
    #if DEBUG
    let pages = 10_000
    #else
    let pages = 50_000
    #endif

    /// A million in debug and release builds; two hundred thousand under a sanitizer, whose
    /// frames are larger, so that a frame per signal would overflow the 8 MiB stack there too.
    let million = BuildKind.rounds(1_000_000, sanitized: 200_000)

    func testConcat_aMillionSynchronousSignals() {
        let million = million
        let signals = (0..<million).map { Signal<Int, Never>.return($0) }
        let sum = Counter()
        let completed = Counter()
        let last = Recorder<Int>()
        Signal.concat(signals).subscribe(next: { value in
            sum.increment()
            if value == million - 1 { last.record(value) }
        }, completed: { completed.increment() })
        XCTAssertEqual(sum.value, million)
        XCTAssertEqual(last.values, [million - 1])
        XCTAssertEqual(completed.value, 1)
    }

    func testConcat_inOrder() {
        let values = Recorder<Int>()
        Signal.concat((0..<10_000).map { Signal<Int, Never>.return($0) }).subscribe(next: { values.record($0) })
        XCTAssertEqual(values.values, Array(0..<10_000))
    }

    func testFlattenMaxConcurrentOne_aMillionSynchronousInners() {
        let million = million
        let outer = Signal<Signal<Int, Never>, Never> { subscriber in
            for value in 0..<million { subscriber.sendNext(.return(value)) }
            subscriber.sendCompleted()
            return nil
        }
        let count = Counter()
        let completed = Counter()
        outer.flatten(maxConcurrent: 1).subscribe(next: { _ in count.increment() }, completed: { completed.increment() })
        XCTAssertEqual(count.value, million)
        XCTAssertEqual(completed.value, 1)
    }

    func testFlattenMaxConcurrentOne_queuedInnersDrainWithoutRecursion() {
        let million = million
        // The first inner holds the slot while a million more queue up; releasing it drains the
        // queue in a loop.
        let (gate, gateInput) = Signal<Int, Never>.pipe()
        let outer = Signal<Signal<Int, Never>, Never> { subscriber in
            subscriber.sendNext(gate)
            for value in 0..<million { subscriber.sendNext(.return(value)) }
            subscriber.sendCompleted()
            return nil
        }
        let values = Recorder<Int>()
        let count = Counter()
        let completed = Counter()
        outer.flatten(maxConcurrent: 1).subscribe(next: { value in
            count.increment()
            if value < 3 { values.record(value) }
        }, completed: { completed.increment() })
        XCTAssertEqual(count.value, 0)
        gateInput.sendCompleted()
        XCTAssertEqual(count.value, million)
        XCTAssertEqual(values.values, [0, 1, 2])
        XCTAssertEqual(completed.value, 1)
    }

    func testConcatChain_tenThousandCalls() {
        var signal = Signal<Int, Never>.return(0)
        for value in 1..<10_000 {
            signal = signal.concat(.return(value))
        }
        let values = Recorder<Int>()
        let completed = Counter()
        signal.subscribe(next: { values.record($0) }, completed: { completed.increment() })
        XCTAssertEqual(values.values, Array(0..<10_000))
        XCTAssertEqual(completed.value, 1)
    }

    func testFlattenMap_pagingFiftyThousandDeep_disposedOnASmallStack_letsGoOfEveryLevel() {
        let pages = pages
        let queue = QueueScheduler(name: "paging")
        let reached = Counter()
        let levels = Recorder<WeakReference<LifetimeToken>>()
        XCTAssertTrue(onAThread {
            let subscription = Self.page(0, of: pages, on: queue, levels: levels, reached: reached)
                .subscribe(next: { _ in XCTFail("no page sends a value") })
            XCTAssertTrue(eventually(timeout: 60) { reached.value == pages + 1 }, "\(reached.value) levels subscribed")
            subscription.dispose()
            XCTAssertTrue(subscription.isDisposed)
        })
        XCTAssertEqual(levels.values.count, pages + 1)
        XCTAssertTrue(eventually { !levels.values.contains(where: \.isAlive) }, "every level is let go of")
    }

    func testCreatedSignals_pagingFiftyThousandDeep_disposedOnASmallStack_runEveryLevelsDisposalDeepestFirst() {
        let pages = pages
        let queue = QueueScheduler(name: "paging")
        let reached = Counter()
        let disposals = StepOrder()
        let levels = Recorder<WeakReference<LifetimeToken>>()
        XCTAssertTrue(onAThread {
            let subscription = Self.pageWithDisposal(0, of: pages, on: queue, disposals: disposals, levels: levels, reached: reached)
                .subscribe(next: { _ in XCTFail("no page sends a value") })
            XCTAssertTrue(eventually(timeout: 60) { reached.value == pages + 1 }, "\(reached.value) levels subscribed")
            XCTAssertEqual(disposals.inOrder, 0)
            subscription.dispose()
            // Each level's subscription holds the next level's first: disposal reaches the deepest
            // level's action first, then the others on the way back up, as nested calls would.
            XCTAssertEqual(disposals.inOrder, pages + 1)
            XCTAssertNil(disposals.miss)
        })
        XCTAssertEqual(levels.values.count, pages + 1)
        XCTAssertTrue(eventually { !levels.values.contains(where: \.isAlive) }, "every level is let go of")
    }

    /// `page(k)`: `return(k)` delivered on `queue`, flat-mapped to `page(k + 1)`, down to `never` at
    /// `last`; each level's transform holds a token of its own.
    private static func page(
        _ index: Int,
        of last: Int,
        on queue: Scheduler,
        levels: Recorder<WeakReference<LifetimeToken>>,
        reached: Counter
    ) -> Signal<Int, Never> {
        let token = LifetimeToken()
        levels.record(WeakReference(token))
        return Signal<Int, Never>.return(index).deliver(on: queue).flattenMap { (index: Int) -> Signal<Int, Never> in
            _ = token
            reached.increment()
            return index == last ? .never : page(index + 1, of: last, on: queue, levels: levels, reached: reached)
        }
    }

    /// `page(_:of:on:levels:reached:)` inside a created signal whose disposable disposes the
    /// subscription to it, then runs an action of its own, which arrives at step `last - index`.
    private static func pageWithDisposal(
        _ index: Int,
        of last: Int,
        on queue: Scheduler,
        disposals: StepOrder,
        levels: Recorder<WeakReference<LifetimeToken>>,
        reached: Counter
    ) -> Signal<Int, Never> {
        let inner = Signal<Int, Never>.return(index).deliver(on: queue).flattenMap { (index: Int) -> Signal<Int, Never> in
            reached.increment()
            return index == last
                ? .never
                : pageWithDisposal(index + 1, of: last, on: queue, disposals: disposals, levels: levels, reached: reached)
        }
        return Signal { subscriber in
            let token = LifetimeToken()
            levels.record(WeakReference(token))
            let subscription = inner.subscribe(subscriber)
            return CompoundDisposable([subscription, Disposable { _ = token; disposals.arrive(last - index) }])
        }
    }
}
