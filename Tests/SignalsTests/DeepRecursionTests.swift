import Disposables
import Signals
import TestSupport
import XCTest

/// Signal counts that would overflow the stack if each signal nested a call.
final class DeepRecursionTests: LeakCheckedTestCase {
    func testConcat_aMillionSynchronousSignals() {
        let signals = (0..<1_000_000).map { Signal<Int, Never>.return($0) }
        let sum = Counter()
        let completed = Counter()
        let last = Recorder<Int>()
        Signal.concat(signals).subscribe(next: { value in
            sum.increment()
            if value == 999_999 { last.record(value) }
        }, completed: { completed.increment() })
        XCTAssertEqual(sum.value, 1_000_000)
        XCTAssertEqual(last.values, [999_999])
        XCTAssertEqual(completed.value, 1)
    }

    func testConcat_inOrder() {
        let values = Recorder<Int>()
        Signal.concat((0..<10_000).map { Signal<Int, Never>.return($0) }).subscribe(next: { values.record($0) })
        XCTAssertEqual(values.values, Array(0..<10_000))
    }

    func testFlattenMaxConcurrentOne_aMillionSynchronousInners() {
        let outer = Signal<Signal<Int, Never>, Never> { subscriber in
            for value in 0..<1_000_000 { subscriber.sendNext(.return(value)) }
            subscriber.sendCompleted()
            return nil
        }
        let count = Counter()
        let completed = Counter()
        outer.flatten(maxConcurrent: 1).subscribe(next: { _ in count.increment() }, completed: { completed.increment() })
        XCTAssertEqual(count.value, 1_000_000)
        XCTAssertEqual(completed.value, 1)
    }

    func testFlattenMaxConcurrentOne_queuedInnersDrainWithoutRecursion() {
        // The first inner holds the slot while a million more queue up; releasing it drains the
        // queue in a loop.
        let (gate, gateInput) = Signal<Int, Never>.pipe()
        let outer = Signal<Signal<Int, Never>, Never> { subscriber in
            subscriber.sendNext(gate)
            for value in 0..<1_000_000 { subscriber.sendNext(.return(value)) }
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
        XCTAssertEqual(count.value, 1_000_000)
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
}
