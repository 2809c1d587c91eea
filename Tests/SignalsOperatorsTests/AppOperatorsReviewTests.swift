import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// A hostile review of the app-layer operators (`compactMap`, `withLatestFrom`, `flatMapLatest`, the count
/// buffers), attacked as a hostile user would: odd counts, timing edges, reentrancy, other
/// threads, blocking callbacks and disposal from everywhere.
final class AppOperatorsReviewTests: LeakCheckedTestCase {
    // MARK: compactMap

    func testCompactMap_releasesTheTransformAfterTheEnd_andAfterDisposal() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let (subscription, token) = trackingLifetime { token in
            signal.compactMap { value -> Int? in _ = token; return value }.subscribe()
        }
        XCTAssertTrue(token.isAlive)
        subscription.dispose()
        XCTAssertFalse(token.isAlive, "disposal released the transform")

        let (_, ended) = trackingLifetime { token in
            signal.compactMap { value -> Int? in _ = token; return value }.subscribe()
        }
        input.sendCompleted()
        XCTAssertFalse(ended.isAlive, "the end released the transform")
    }

    func testIgnoreNil_onSignal_isCompactMapOfTheIdentity() {
        let recorder = TestSource<Int?>([nil, 1, nil, nil, 2, nil]).signal.ignoreNil().record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
    }

    func testCompactMap_disposedFromInsideTheTransform_sendsNothingMore() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let subscription = SerialDisposable()
        let received = Recorder<Int>()
        subscription.disposable = signal.compactMap { value -> Int? in
            if value == 3 { subscription.dispose() }
            return value
        }.subscribe(next: { received.record($0) })
        for value in 0..<10 { input.sendNext(value) }
        XCTAssertEqual(received.values, [0, 1, 2], "the value being transformed when disposed is not sent")
    }

    // MARK: withLatestFrom

    func testWithLatestFrom_aSignalWithItself_pairsEachValueWithItself() {
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.withLatestFrom(signal).map { "\($0.0)\($0.1)" }.record()
        input.sendNext(1)
        input.sendNext(2)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next("11"), .next("22"), .completed])
    }

    func testWithLatestFrom_sendingIntoOtherThenTheSourceFromInsideTheCallback_eachInputKeepsItsOwnOrder() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (other, otherInput) = Signal<String, TestError>.pipe()
        let received = Recorder<String>()
        otherInput.sendNext("?")
        let subscription = source.withLatestFrom(other).subscribe(next: { value, latest in
            received.record("\(value)\(latest)")
            if value == 1 {
                otherInput.sendNext("b")
                sourceInput.sendNext(2)
                otherInput.sendNext("c")
                sourceInput.sendNext(3)
            }
        })
        otherInput.sendNext("a")
        sourceInput.sendNext(1)
        // Each input queues its own reentrant sends, delivered after the current callback: "b"
        // and "c" reach `other` at once (it is not delivering), 2 and 3 wait for the source's
        // delivery to end, so 2 is paired with "c". The same holds for combineLatest and any
        // operator over two pipes; pinned here so that a change to it is seen.
        XCTAssertEqual(received.values, ["1a", "2c", "3c"])
        subscription.dispose()
    }

    func testWithLatestFrom_disposedFromInsideTheCombineClosure_sendsNothingMore() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let (other, otherInput) = Signal<Int, TestError>.pipe()
        let subscription = SerialDisposable()
        let received = Recorder<Int>()
        subscription.disposable = source.withLatestFrom(other) { value, latest -> Int in
            if value == 2 { subscription.dispose() }
            return value + latest
        }.subscribe(next: { received.record($0) })
        otherInput.sendNext(10)
        sourceInput.sendNext(1)
        sourceInput.sendNext(2)
        sourceInput.sendNext(3)
        XCTAssertEqual(received.values, [11], "the value being combined when disposed is not sent")
    }

    func testWithLatestFrom_othersErrorAfterItsCompletion_isNotPossible_theSourceStillEnds() {
        let (source, sourceInput) = Signal<Int, TestError>.pipe()
        let other = TestSource([7])
        let recorder = source.withLatestFrom(other.signal).map { $0.0 + $0.1 }.record()
        sourceInput.sendNext(1)
        sourceInput.sendError(.first)
        XCTAssertEqual(recorder.events, [.next(8), .error(.first)])
    }

    func testWithLatestFrom_aCallbackWaitingForAThreadThatDisposes_doesNotHang() {
        withWatchdog("withLatestFrom: callback waits for a thread that disposes") {
            let (source, sourceInput) = Signal<Int, Never>.pipe()
            let (other, otherInput) = Signal<Int, Never>.pipe()
            let subscription = SerialDisposable()
            let received = Recorder<Int>()
            subscription.disposable = source.withLatestFrom(other).subscribe(next: { value, _ in
                received.record(value)
                let disposed = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    subscription.dispose()
                    disposed.signal()
                }
                XCTAssertTrue(disposed.waitForSignal(), "dispose() waited for the callback")
            })
            otherInput.sendNext(0)
            sourceInput.sendNext(1)
            sourceInput.sendNext(2)
            XCTAssertEqual(received.values, [1])
        }
    }

    func testWithLatestFrom_aCallbackWaitingForAThreadSendingIntoOther_doesNotHang() {
        withWatchdog("withLatestFrom: callback waits for a thread sending into other") {
            let (source, sourceInput) = Signal<Int, Never>.pipe()
            let (other, otherInput) = Signal<Int, Never>.pipe()
            let received = Recorder<String>()
            let serial = DispatchQueue(label: "review 27 other sender")
            let subscription = source.withLatestFrom(other).subscribe(next: { value, latest in
                received.record("\(value)\(latest)")
                // `sync` runs the block on this thread: the send is reentrant, queued, and taken
                // before the next source value. (A send from another thread waits for this
                // callback, as any junction's does, so waiting for one would deadlock.)
                if value == 1 { serial.sync { otherInput.sendNext(9) } }
            })
            otherInput.sendNext(0)
            sourceInput.sendNext(1)
            sourceInput.sendNext(2)
            XCTAssertEqual(received.values, ["10", "29"])
            subscription.dispose()
        }
    }

    func testFlatMapLatest_anAsynchronousInner_fromEveryThreadContext_disposedInsideTheCallback() {
        for context in ReviewContext.allCases {
            let (source, input) = Signal<Int, Never>.pipe()
            let scheduler = QueueScheduler(name: "review 27 inner")
            let received = Recorder<Int>()
            let innerDisposed = Flag()
            let box = DisposableBox()
            let subscription = SerialDisposable()
            context.run {
                subscription.disposable = source.flatMapLatest { value in
                    Signal<Int, Never> { subscriber in
                        let work = scheduler.schedule {
                            for n in 0..<100 { subscriber.sendNext(value * 1_000 + n) }
                        }
                        return Disposable {
                            work?.dispose()
                            innerDisposed.set()
                        }
                    }
                }.subscribe(next: { value in
                    received.record(value)
                    subscription.dispose()
                })
                box.disposable = subscription
                input.sendNext(1)
            }
            XCTAssertTrue(pollWithoutRunningTheMainQueue { innerDisposed.isSet }, "\(context)")
            let drained = Flag()
            scheduler.schedule { drained.set() }
            XCTAssertTrue(pollWithoutRunningTheMainQueue { drained.isSet })
            XCTAssertEqual(received.values, [1_000], "\(context)")
        }
    }

    func testWithLatestFrom_fromEveryThreadContext_disposedFromOutside() {
        for context in ReviewContext.allCases {
            let (source, sourceInput) = Signal<Int, Never>.pipe()
            let (other, otherInput) = Signal<Int, Never>.pipe()
            let received = Recorder<Int>()
            let box = DisposableBox()
            context.run {
                box.disposable = (source.withLatestFrom(other) { $0 * 100 + $1 }
                    .subscribe(next: { received.record($0) }))
                otherInput.sendNext(1)
                sourceInput.sendNext(2)
                otherInput.sendNext(3)
                sourceInput.sendNext(4)
            }
            box.disposable?.dispose()
            sourceInput.sendNext(5)
            XCTAssertEqual(received.values, [201, 403], "\(context)")
        }
    }

    func testWithLatestFrom_eitherInputEndingOnAnotherThreadWhileTheOtherSends_endsOnceAndLast() {
        let rounds = BuildKind.isSanitized ? 20 : 200
        for round in 0..<rounds {
            let otherFails = round.isMultiple(of: 2)
            let (source, sourceInput) = Signal<Int, TestError>.pipe()
            let (other, otherInput) = Signal<Int, TestError>.pipe()
            let events = Recorder<String>()
            let subscription = source.withLatestFrom(other) { $0 + $1 }.subscribe(
                next: { _ in events.record("next") },
                error: { _ in events.record("error") },
                completed: { events.record("completed") }
            )
            otherInput.sendNext(0)
            let ended = startThread("review 27 other") {
                for value in 0..<50 { otherInput.sendNext(value) }
                if otherFails { otherInput.sendError(.first) } else { otherInput.sendCompleted() }
            }
            for value in 0..<200 { sourceInput.sendNext(value) }
            if !otherFails { sourceInput.sendCompleted() }
            XCTAssertTrue(pollWithoutRunningTheMainQueue { ended.isSet })
            sourceInput.sendNext(1_000)
            let recorded = events.values
            let terminals = recorded.filter { $0 != "next" }
            XCTAssertEqual(terminals, [otherFails ? "error" : "completed"], "round \(round)")
            XCTAssertEqual(recorded.last, terminals.first, "round \(round): nothing after the end")
            subscription.dispose()
        }
    }

    func testFlatMapLatest_theSourceCompletingWhileTheInnerSendsOnAnotherThread_completesOnceAfterTheInnersValues() {
        let rounds = BuildKind.isSanitized ? 20 : 200
        for round in 0..<rounds {
            let (source, sourceInput) = Signal<Int, Never>.pipe()
            let (inner, innerInput) = Signal<Int, Never>.pipe()
            let events = Recorder<String>()
            let subscription = source.flatMapLatest { _ in inner }.subscribe(
                next: { events.record("\($0)") },
                completed: { events.record("completed") }
            )
            sourceInput.sendNext(0)
            let ended = startThread("review 27 inner") {
                for value in 0..<100 { innerInput.sendNext(value) }
                innerInput.sendCompleted()
            }
            sourceInput.sendCompleted()
            XCTAssertTrue(pollWithoutRunningTheMainQueue { ended.isSet })
            XCTAssertEqual(events.values, (0..<100).map { "\($0)" } + ["completed"], "round \(round)")
            subscription.dispose()
        }
    }

    // MARK: flatMapLatest

    func testFlatMapLatest_aMillionSynchronousInners_onASmallStack() {
        let count = BuildKind.isSanitized ? 50_000 : (!BuildKind.isDebug ? 1_000_000 : 200_000)
        let result = Lock<(last: Int?, values: Int, completed: Bool)>((nil, 0, false))
        // In a scheduler's block (a dispatch thread's stack), where subscriptions run inline.
        ReviewContext.schedulerBlock.run {
            let source = Signal<Int, Never> { subscriber in
                for value in 0..<count { subscriber.sendNext(value) }
                subscriber.sendCompleted()
                return nil
            }
            _ = source.flatMapLatest { Signal<Int, Never>.return($0) }.subscribe(
                next: { value in result.withLock { $0.last = value; $0.values += 1 } },
                completed: { result.withLock { $0.completed = true } }
            )
        }
        let (last, values, completed) = result.withLock { $0 }
        XCTAssertEqual(last, count - 1)
        XCTAssertEqual(values, count)
        XCTAssertTrue(completed)
    }

    func testFlatMapLatest_innersThatSendIntoTheSourceWhenSubscribed_doNotRecurse() {
        // Each inner, when subscribed, sends the next value into the source: the reentrant send
        // is queued, so the chain runs in a loop, not a recursion, however long.
        let depth = BuildKind.isSanitized ? 20_000 : (BuildKind.isDebug ? 50_000 : 200_000)
        let result = Lock<(values: Int, last: Int?)>((0, nil))
        ReviewContext.schedulerBlock.run {
            let (source, input) = Signal<Int, Never>.pipe()
            let subscription = source.flatMapLatest { value in
                Signal<Int, Never> { subscriber in
                    if value < depth { input.sendNext(value + 1) }
                    subscriber.sendNext(value)
                    return nil
                }
            }.subscribe(next: { value in result.withLock { $0.values += 1; $0.last = value } })
            input.sendNext(0)
            subscription.dispose()
        }
        let (values, last) = result.withLock { $0 }
        XCTAssertEqual(last, depth)
        XCTAssertEqual(values, depth + 1, "each inner sent its value before the next one's turn")
    }

    func testFlatMapLatest_disposedWhileAnInnerIsBeingSubscribed() {
        let (source, input) = Signal<Int, Never>.pipe()
        let subscription = SerialDisposable()
        let innerDisposals = Counter()
        let received = Recorder<Int>()
        subscription.disposable = source.flatMapLatest { value in
            Signal<Int, Never> { subscriber in
                if value == 2 { subscription.dispose() }
                subscriber.sendNext(value)
                return Disposable { innerDisposals.increment() }
            }
        }.subscribe(next: { received.record($0) })
        input.sendNext(1)
        input.sendNext(2)
        input.sendNext(3)
        XCTAssertEqual(received.values, [1])
        XCTAssertEqual(innerDisposals.value, 2, "the first switched away from, the second disposed as it attached")
    }

    func testFlatMapLatest_disposedFromInsideTheTransform_doesNotSubscribeWhatItMade() {
        let (source, input) = Signal<Int, TestError>.pipe()
        let subscription = SerialDisposable()
        let inner = TestSource([1], end: nil)
        let received = Recorder<Int>()
        subscription.disposable = source.flatMapLatest { value -> Signal<Int, TestError> in
            if value == 2 { subscription.dispose() }
            return inner.signal
        }.subscribe(next: { received.record($0) })
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertEqual(received.values, [1])
        XCTAssertEqual(inner.subscriptions.value, 1, "the inner made after the disposal is not subscribed: its work would be for nothing")
        XCTAssertEqual(inner.disposals.value, 1)
    }

    func testFlatMapLatest_outerCompletesWhileANeverEndingInnerRuns_thenLettingGoReleasesIt() {
        let (inner, innerInput) = Signal<Int, Never>.pipe()
        let recorder = Signal<Int, Never>.return(1).flatMapLatest { _ in inner }.record()
        innerInput.sendNext(5)
        XCTAssertEqual(recorder.values, [5])
        XCTAssertFalse(recorder.events.contains { $0.isFinished }, "the inner still runs")
        recorder.dispose()
        innerInput.sendNext(6)
        XCTAssertEqual(recorder.values, [5])
    }

    func testFlatMapLatest_aCallbackWaitingForAThreadThatDisposes_doesNotHang() {
        withWatchdog("flatMapLatest: callback waits for a thread that disposes") {
            let (source, input) = Signal<Int, Never>.pipe()
            let (inner, innerInput) = Signal<Int, Never>.pipe()
            let subscription = SerialDisposable()
            let received = Recorder<Int>()
            subscription.disposable = source.flatMapLatest { _ in inner }.subscribe(next: { value in
                received.record(value)
                let queue = DispatchQueue(label: "review 27 disposer")
                queue.sync { subscription.dispose() }
                let disposed = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    subscription.dispose()
                    disposed.signal()
                }
                XCTAssertTrue(disposed.waitForSignal())
            })
            input.sendNext(0)
            innerInput.sendNext(1)
            innerInput.sendNext(2)
            XCTAssertEqual(received.values, [1])
        }
    }

    /// Once the switch has happened (the source's send of the new value has returned), no value
    /// the old inner sends from then on reaches the subscriber, whatever thread sends it. (A
    /// value the old inner sent on another thread at the moment of the switch may still arrive
    /// after the new inner's first value, as the doc says and as in RAC 2.5.)
    func testFlatMapLatest_anOldInnerSendingOnAnotherThreadAfterTheSwitch_neverDelivers() {
        let rounds = BuildKind.isSanitized ? 20 : 200
        let violations = Lock<[String]>([])
        let delivered = Counter()
        for round in 0..<rounds {
            let (source, input) = Signal<Int, Never>.pipe()
            let (old, oldInput) = Signal<Int, Never>.pipe()
            // Inner 0 is `old`, fed from another thread with 2n, or 2n + 1 once the switch has
            // returned; inner 1 sends -1 when subscribed, then nothing.
            let subscription = source.flatMapLatest { which -> Signal<Int, Never> in
                which == 0 ? old : Signal<Int, Never> { subscriber in
                    subscriber.sendNext(-1)
                    return nil
                }
            }.subscribe(next: { value in
                if value >= 0 { delivered.increment() }
                if value >= 0 && value % 2 == 1 {
                    violations.withLock { $0.append("round \(round): old value \(value / 2), sent after the switch, delivered") }
                }
            })
            input.sendNext(0)
            let switched = Flag()
            let stop = Flag()
            let sender = startThread("old inner") {
                var n = 0
                while !stop.isSet {
                    oldInput.sendNext(2 * n + (switched.isSet ? 1 : 0))
                    n += 1
                }
            }
            let before = delivered.value
            XCTAssertTrue(pollWithoutRunningTheMainQueue { delivered.value > before }, "the old inner's values come through")
            input.sendNext(1)
            switched.set()
            // Let the old inner go on sending for a while after the switch.
            _ = pollWithoutRunningTheMainQueue(timeout: 0.002) { false }
            stop.set()
            XCTAssertTrue(pollWithoutRunningTheMainQueue { sender.isSet })
            subscription.dispose()
        }
        XCTAssertEqual(violations.withLock { $0 }, [])
    }

    // MARK: let go of, never disposed

    func testLettingGoOfTheInputs_releasesEachOperatorsSubscription() {
        // Each shape subscribes with a closure holding a token, sends a little, and lets go of
        // every input without disposing or ending anything: nothing may keep the subscription.
        typealias Shape = (String, (LifetimeToken) -> Void)
        let shapes: [Shape] = [
            ("compactMap", { token in
                let (signal, input) = Signal<Int, Never>.pipe()
                _ = signal.compactMap { $0 }.subscribe(next: { _ in _ = token })
                input.sendNext(1)
            }),
            ("buffer(count:)", { token in
                let (signal, input) = Signal<Int, Never>.pipe()
                _ = signal.buffer(count: 10).subscribe(next: { _ in _ = token })
                input.sendNext(1)
            }),
            ("withLatestFrom", { token in
                let (signal, input) = Signal<Int, Never>.pipe()
                let (other, otherInput) = Signal<Int, Never>.pipe()
                _ = signal.withLatestFrom(other).subscribe(next: { _ in _ = token })
                otherInput.sendNext(1)
                input.sendNext(1)
            }),
            ("flatMapLatest", { token in
                let (signal, input) = Signal<Int, Never>.pipe()
                let (inner, innerInput) = Signal<Int, Never>.pipe()
                _ = signal.flatMapLatest { _ in inner }.subscribe(next: { _ in _ = token })
                input.sendNext(1)
                innerInput.sendNext(1)
            }),
        ]
        for (name, body) in shapes {
            let (_, token) = trackingLifetime { body($0) }
            XCTAssertTrue(pollWithoutRunningTheMainQueue { !token.isAlive }, "\(name) kept its subscription")
        }
    }

    func testBufferCountOrTime_letGoOfWithAPendingTimer_isReleasedWhenTheTimerFires() {
        let scheduler = TestScheduler()
        let (_, token) = trackingLifetime { token in
            let (signal, input) = Signal<Int, Never>.pipe()
            _ = signal.buffer(count: 10, interval: 1, on: scheduler).subscribe(next: { _ in _ = token })
            input.sendNext(1)
        }
        scheduler.advance(by: 1)
        XCTAssertFalse(token.isAlive, "the window's timer was the last thing holding it")
    }

    // MARK: buffer(count:)

    func testBufferCount_one_sendsEachValueAlone() {
        XCTAssertEqual(
            TestSource([1, 2, 3]).signal.buffer(count: 1).record().events,
            [.next([1]), .next([2]), .next([3]), .completed]
        )
    }

    func testBufferCount_huge_reservesNothingAhead_andSendsTheRestAtCompletion() {
        let recorder = TestSource(Array(0..<10)).signal.buffer(count: .max).record()
        XCTAssertEqual(recorder.events, [.next(Array(0..<10)), .completed])
        XCTAssertEqual(TestSource<Int>([]).signal.buffer(count: .max).record().events, [.completed], "no empty array")
    }

    func testBufferCount_reentrantSendFromTheCallback_isNotLost() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let received = Recorder<[Int]>()
        let subscription = signal.buffer(count: 2).subscribe(next: { array in
            received.record(array)
            if array == [1, 2] { input.sendNext(3) }
        })
        input.sendNext(1)
        input.sendNext(2)
        input.sendNext(4)
        input.sendCompleted()
        XCTAssertEqual(received.values, [[1, 2], [3, 4]])
        subscription.dispose()
    }

    func testBufferCount_keptArraysAreNotChangedByLaterValues_evenWhenReentrant() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let kept = Lock<[[Int]]>([])
        let subscription = signal.buffer(count: 3).subscribe(next: { array in
            kept.withLock { $0.append(array) }
            if array.first == 0 { input.sendNext(99) }
        })
        for value in 0..<9 { input.sendNext(value) }
        input.sendCompleted()
        XCTAssertEqual(kept.withLock { $0 }, [[0, 1, 2], [99, 3, 4], [5, 6, 7], [8]])
        subscription.dispose()
    }

    // MARK: buffer(count:interval:on:) timing edges

    func testBufferCountOrTime_aValueExactlyAtTheWindowsEnd_opensTheNextWindow() {
        // a at 0 s opens a 1 s window; b at 1 s exactly. The window's timer was scheduled when
        // a arrived, after b's send was scheduled by the cold signal: b is in a's window.
        let scheduler = TestScheduler()
        let source = scheduler.createColdSignal("ab--", values: ["a": 1, "b": 2], error: TestError.first)
        let recording = scheduler.record(source.buffer(count: 10, interval: 1, on: scheduler))
        scheduler.advance(by: 10)
        XCTAssertEqual(recording.events.map(\.time), [1])
        XCTAssertEqual(recording.values, [[1, 2]])
    }

    func testBufferCountOrTime_aHotValueExactlyAtTheWindowsEnd_goesToTheNextWindow() {
        // Here the value's send is scheduled after the window's timer: the window closes first.
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.buffer(count: 10, interval: 1, on: scheduler).record(on: scheduler)
        input.sendNext(1)
        scheduler.schedule(afterDelay: 1) { input.sendNext(2) }
        scheduler.advance(by: 1)
        scheduler.advance(by: 5)
        XCTAssertEqual(recorder.events, [at(1, .next([1])), at(2, .next([2]))] as [Stamped<[Int], Never>])
    }

    func testBufferCountOrTime_completionWithAPendingTimer_flushesAndLeavesNothingScheduled() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.buffer(count: 10, interval: 5, on: scheduler).record(on: scheduler)
        input.sendNext(1)
        scheduler.advance(by: 1)
        input.sendCompleted()
        XCTAssertTrue(scheduler.isEmpty, "the window's timer was cancelled")
        scheduler.advance(by: 10)
        XCTAssertEqual(recorder.events, [at(1, .next([1])), at(1, .completed)] as [Stamped<[Int], Never>])
    }

    func testBufferCountOrTime_errorWithAPendingTimer_sendsOnlyTheError() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let recorder = signal.buffer(count: 10, interval: 5, on: scheduler).record(on: scheduler)
        input.sendNext(1)
        scheduler.advance(by: 1)
        input.sendError(.first)
        XCTAssertTrue(scheduler.isEmpty)
        scheduler.advance(by: 10)
        XCTAssertEqual(recorder.events, [at(1, .error(.first))] as [Stamped<[Int], TestError>])
    }

    func testBufferCountOrTime_disposalWithAPendingTimer_sendsNothingAfter() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.buffer(count: 10, interval: 5, on: scheduler).record(on: scheduler)
        input.sendNext(1)
        recorder.dispose()
        XCTAssertTrue(scheduler.isEmpty)
        input.sendNext(2)
        scheduler.advance(by: 10)
        XCTAssertEqual(recorder.events, [] as [Stamped<[Int], Never>])
    }

    func testBufferCountOrTime_disposedFromInsideTheCallback_inTheTimersBlock() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let subscription = SerialDisposable()
        let received = Recorder<[Int]>()
        subscription.disposable = signal.buffer(count: 10, interval: 1, on: scheduler).subscribe(next: { array in
            received.record(array)
            subscription.dispose()
        })
        input.sendNext(1)
        scheduler.advance(by: 1)
        input.sendNext(2)
        scheduler.advance(by: 5)
        XCTAssertEqual(received.values, [[1]])
        XCTAssertTrue(scheduler.isEmpty)
    }

    func testBufferCountOrTime_countOne_neverLeavesATimer() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int, Never>.pipe()
        let recorder = signal.buffer(count: 1, interval: 1, on: scheduler).record(on: scheduler)
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertTrue(scheduler.isEmpty, "each value closes its window at once")
        XCTAssertEqual(recorder.events, [at(0, .next([1])), at(0, .next([2]))] as [Stamped<[Int], Never>])
        recorder.dispose()
    }

    func testBufferCountOrTime_concurrentSendersOnAQueueScheduler_loseAndDuplicateNothing() {
        let scheduler = QueueScheduler(name: "review 27 buffer senders")
        let (signal, input) = Signal<Int, Never>.pipe()
        let windows = Recorder<[Int]>()
        let senders = 4
        let perSender = BuildKind.isSanitized ? 500 : 5_000
        let subscription = signal.buffer(count: 7, interval: 0.000_2, on: scheduler).subscribe(next: { windows.record($0) })
        let finished = (0..<senders).map { sender in
            startThread("review 27 sender \(sender)") {
                for value in 0..<perSender { input.sendNext(sender * perSender + value) }
            }
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { finished.allSatisfy(\.isSet) })
        input.sendCompleted()
        XCTAssertTrue(pollWithoutRunningTheMainQueue { windows.values.reduce(0) { $0 + $1.count } == senders * perSender })
        let all = windows.values.flatMap { $0 }
        XCTAssertEqual(all.sorted(), Array(0..<senders * perSender))
        XCTAssertFalse(windows.values.contains { $0.isEmpty || $0.count > 7 })
        for sender in 0..<senders {
            let own = all.filter { $0 / perSender == sender }
            XCTAssertEqual(own, own.sorted(), "each sender's values in its order")
        }
        subscription.dispose()
    }

    func testBufferCountOrTime_aCallbackOnTheSchedulerWaitingForAThreadThatDisposes_doesNotHang() {
        withWatchdog("buffer(count:interval:on:): timer callback waits for a thread that disposes") {
            let scheduler = QueueScheduler(name: "review 27 buffer blocking")
            let (signal, input) = Signal<Int, Never>.pipe()
            let subscription = SerialDisposable()
            let received = Recorder<[Int]>()
            let done = Flag()
            subscription.disposable = signal.buffer(count: 10, interval: 0.001, on: scheduler).subscribe(next: { array in
                received.record(array)
                let disposed = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    subscription.dispose()
                    disposed.signal()
                }
                XCTAssertTrue(disposed.waitForSignal())
                done.set()
            })
            input.sendNext(1)
            XCTAssertTrue(pollWithoutRunningTheMainQueue { done.isSet })
            input.sendNext(2)
            let drained = Flag()
            scheduler.schedule(afterDelay: 0.01) { drained.set() }
            XCTAssertTrue(pollWithoutRunningTheMainQueue { drained.isSet })
            XCTAssertEqual(received.values, [[1]])
        }
    }
}
