import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// The deep cases, each on a thread with a 512 KiB stack: the size of Apple's secondary threads
/// and of Dispatch's workers, where an app's background work runs. A recursion per inner signal,
/// repetition or input would overflow it within a few thousand levels.
///
/// Each runs with a current scheduler (as a scheduler's block would), so subscriptions start on the
/// small stack itself rather than hopping to the background subscription scheduler, and everything
/// happens there before `subscribe` returns.
///
/// Optimized builds (CI's release run) use the full sizes: a million signals, repetitions and
/// inners, ten thousand inputs. Debug builds, which the sanitizer runs are, have frames several
/// times larger and run ten times slower, so they use a tenth, on the same stack.
final class SmallStackTests: LeakCheckedTestCase {
    private let stack = BuildKind.smallStack(512 * 1024)
    #if DEBUG
    private let million = 100_000
    private let tenThousand = 1_000
    #else
    private let million = 1_000_000
    private let tenThousand = 10_000
    #endif

    /// Runs `body` on a plain thread with a 512 KiB stack, as a block of a queue scheduler, under
    /// a watchdog.
    private func onASmallStack(_ shape: String, _ body: @escaping @Sendable () -> Void) {
        withWatchdog(seconds: 120, shape) {
            onAPlainThread(stackSize: stack) {
                QueueScheduler(name: "small stack").performAsCurrentScheduler(body)
            }
        }
    }

    func testConcat_ofAMillionSynchronousSignals() {
        let million = million
        let count = Counter()
        let completed = Counter()
        onASmallStack("concat of a million") {
            Signal.concat((0..<million).map { Signal<Int, Never>.return($0) })
                .subscribe(next: { _ in count.increment() }, completed: { completed.increment() })
        }
        XCTAssertEqual(count.value, million)
        XCTAssertEqual(completed.value, 1)
    }

    func testRepeat_aMillionTimes() {
        let million = million
        let count = Counter()
        let completed = Counter()
        onASmallStack("repeat a million times") {
            Signal<Int, Never>.return(1).repeat().take(million)
                .subscribe(next: { _ in count.increment() }, completed: { completed.increment() })
        }
        XCTAssertEqual(count.value, million)
        XCTAssertEqual(completed.value, 1)
    }

    func testRetry_aMillionFailures() {
        let million = million
        let subscriptions = Counter()
        let events = Recorder<Event<Int, TestError>>()
        let source = Signal<Int, TestError> { subscriber in
            subscriptions.increment()
            if subscriptions.value <= million {
                subscriber.sendError(.first)
            } else {
                subscriber.sendNext(42)
                subscriber.sendCompleted()
            }
            return nil
        }
        onASmallStack("retry a million failures") {
            source.retry().subscribe(next: { events.record(.next($0)) }, error: { events.record(.error($0)) }, completed: { events.record(.completed) })
        }
        XCTAssertEqual(events.values, [.next(42), .completed])
        XCTAssertEqual(subscriptions.value, million + 1)
    }

    func testFlattenMaxConcurrentOne_aMillionSynchronousInners() {
        let million = million
        let count = Counter()
        let completed = Counter()
        onASmallStack("flatten(maxConcurrent: 1) of a million") {
            let outer = Signal<Signal<Int, Never>, Never> { subscriber in
                for value in 0..<million { subscriber.sendNext(.return(value)) }
                subscriber.sendCompleted()
                return nil
            }
            outer.flatten(maxConcurrent: 1).subscribe(next: { _ in count.increment() }, completed: { completed.increment() })
        }
        XCTAssertEqual(count.value, million)
        XCTAssertEqual(completed.value, 1)
    }

    func testFlattenMaxConcurrentOne_aMillionQueuedInnersDrained() {
        let million = million
        let count = Counter()
        let completed = Counter()
        onASmallStack("flatten(maxConcurrent: 1) draining a million queued inners") {
            let (gate, gateInput) = Signal<Int, Never>.pipe()
            let outer = Signal<Signal<Int, Never>, Never> { subscriber in
                subscriber.sendNext(gate)
                for value in 0..<million { subscriber.sendNext(.return(value)) }
                subscriber.sendCompleted()
                return nil
            }
            outer.flatten(maxConcurrent: 1).subscribe(next: { _ in count.increment() }, completed: { completed.increment() })
            gateInput.sendCompleted()
        }
        XCTAssertEqual(count.value, million)
        XCTAssertEqual(completed.value, 1)
    }

    func testCombineLatest_ofTenThousandInputs() {
        let inputs = tenThousand
        let rows = Counter()
        let last = Recorder<[Int]>()
        let completed = Counter()
        onASmallStack("combineLatest of ten thousand") {
            let pipes = (0..<inputs).map { _ in Signal<Int, Never>.pipe() }
            let subscription = Signal.combineLatest(pipes.map(\.signal))
                .subscribe(next: { row in
                    rows.increment()
                    if row[0] == -1 { last.record(row) }
                }, completed: { completed.increment() })
            for (index, pipe) in pipes.enumerated() { pipe.input.sendNext(index) }
            pipes[0].input.sendNext(-1)
            for pipe in pipes { pipe.input.sendCompleted() }
            subscription.dispose()
        }
        XCTAssertEqual(rows.value, 2)
        XCTAssertEqual(last.values, [[-1] + Array(1..<inputs)])
        XCTAssertEqual(completed.value, 1)
    }

    func testZip_ofTenThousandInputs() {
        let inputs = tenThousand
        let rows = Recorder<[Int]>()
        let completed = Counter()
        onASmallStack("zip of ten thousand") {
            let pipes = (0..<inputs).map { _ in Signal<Int, Never>.pipe() }
            Signal.zip(pipes.map(\.signal)).subscribe(next: { rows.record($0) }, completed: { completed.increment() })
            for round in 0..<2 {
                for (index, pipe) in pipes.enumerated() { pipe.input.sendNext(index + round) }
            }
            pipes[inputs - 1].input.sendCompleted()
        }
        XCTAssertEqual(rows.values, [Array(0..<inputs), Array(1...inputs)])
        XCTAssertEqual(completed.value, 1)
    }

    func testConcat_aTenThousandLongChainOfCalls() {
        let depth = tenThousand
        let values = Counter()
        let completed = Counter()
        onASmallStack("ten thousand nested concat calls") {
            var signal = Signal<Int, Never>.return(0)
            for value in 1..<depth { signal = signal.concat(.return(value)) }
            signal.subscribe(next: { _ in values.increment() }, completed: { completed.increment() })
        }
        XCTAssertEqual(values.value, depth)
        XCTAssertEqual(completed.value, 1)
    }
}
