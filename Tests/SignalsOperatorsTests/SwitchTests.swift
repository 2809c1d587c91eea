import Disposables
import Signals
import TestSupport
import XCTest

final class SwitchTests: LeakCheckedTestCase {
    // MARK: switch

    func testSwitch_followsTheCaseOfTheLatestKey() {
        let (keys, keyInput) = Signal<String, TestError>.pipe()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let (b, bInput) = Signal<Int, TestError>.pipe()
        let recorder = Signal.switch(keys, cases: ["a": a, "b": b], default: nil).record()
        aInput.sendNext(0)
        keyInput.sendNext("a")
        aInput.sendNext(1)
        bInput.sendNext(2)
        keyInput.sendNext("b")
        aInput.sendNext(3)
        bInput.sendNext(4)
        XCTAssertEqual(recorder.events, [.next(1), .next(4)])
    }

    func testSwitch_resubscribesOnARepeatedKey() {
        let source = TestSource([7])
        let keys = TestSource(["x", "x", "x"])
        let recorder = Signal.switch(keys.signal, cases: ["x": source.signal], default: nil).record()
        XCTAssertEqual(recorder.events, [.next(7), .next(7), .next(7), .completed])
        XCTAssertEqual(source.subscriptions.value, 3)
    }

    func testSwitch_repeatedKeyDisposesThePreviousSubscription() {
        let source = DrivenSource<TestError>()
        let (keys, keyInput) = Signal<String, TestError>.pipe()
        let recorder = Signal.switch(keys, cases: ["x": source.signal], default: nil).record()
        keyInput.sendNext("x")
        source.input.sendNext(1)
        keyInput.sendNext("x")
        XCTAssertEqual(source.disposals.value, 1)
        source.input.sendNext(2)
        // Only the second subscription is live: each value arrives once.
        XCTAssertEqual(recorder.events, [.next(1), .next(2)])
    }

    func testSwitch_usesTheDefaultForAnUnmatchedKey() {
        let keys = TestSource(["a", "z"])
        let recorder = Signal.switch(
            keys.signal,
            cases: ["a": TestSource([1]).signal],
            default: TestSource([0]).signal
        ).record()
        XCTAssertEqual(recorder.events, [.next(1), .next(0), .completed])
    }

    func testSwitch_unmatchedKeyWithoutDefaultFailsWhenItArrives() {
        let (keys, keyInput) = Signal<String, any Error>.pipe()
        let (a, aInput) = Signal<Int, any Error>.pipe()
        let events = Recorder<String>()
        Signal.switch(keys, cases: ["a": a], default: nil).subscribe(
            next: { events.record("\($0)") },
            error: { events.record("error \($0)") },
            completed: { events.record("completed") }
        )
        keyInput.sendNext("a")
        aInput.sendNext(1)
        XCTAssertEqual(events.values, ["1"])
        keyInput.sendNext("nope")
        aInput.sendNext(2)
        XCTAssertEqual(events.values, ["1", "error \(SignalError.noMatchingCase("nope"))"])
    }

    func testSwitch_unmatchedKeyFailsWithSignalError() {
        let keys = Signal<Int, SignalError>.return(5)
        let recorder = Signal.switch(keys, cases: [1: Signal<String, SignalError>.return("one")], default: nil).record()
        XCTAssertEqual(recorder.events, [.error(.noMatchingCase("5"))])
    }

    func testSwitch_optionalKeysMatchNil() {
        let keys = TestSource<String?>([nil, "a"])
        let recorder = Signal.switch(
            keys.signal,
            cases: [nil: TestSource([0]).signal, "a": TestSource([1]).signal],
            default: nil
        ).record()
        XCTAssertEqual(recorder.events, [.next(0), .next(1), .completed])
    }

    func testSwitch_completesWhenKeysAndTheCurrentCaseHaveCompleted() {
        let (keys, keyInput) = Signal<String, TestError>.pipe()
        let (a, aInput) = Signal<Int, TestError>.pipe()
        let recorder = Signal.switch(keys, cases: ["a": a], default: nil).record()
        keyInput.sendNext("a")
        keyInput.sendCompleted()
        aInput.sendNext(1)
        XCTAssertEqual(recorder.events, [.next(1)])
        aInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
    }

    func testSwitch_emptyKeysComplete() {
        let recorder = Signal.switch(TestSource<String>([]).signal, cases: ["a": TestSource([1]).signal], default: nil).record()
        XCTAssertEqual(recorder.events, [.completed])
    }

    func testSwitch_errorFromTheKeysOrTheCase() {
        let failingKeys = TestSource(["a"], end: .error(.first))
        let (a, _) = Signal<Int, TestError>.pipe()
        XCTAssertEqual(Signal.switch(failingKeys.signal, cases: ["a": a], default: nil).record().events, [.error(.first)])
        let failingCase = TestSource([1], end: .error(.second))
        let (keys, keyInput) = Signal<String, TestError>.pipe()
        let recorder = Signal.switch(keys, cases: ["a": failingCase.signal], default: nil).record()
        keyInput.sendNext("a")
        XCTAssertEqual(recorder.events, [.next(1), .error(.second)])
    }

    func testSwitch_disposalDisposesTheKeysAndTheCurrentCase() {
        let keys = DrivenSource<TestError>()
        let source = DrivenSource<TestError>()
        let recorder = Signal.switch(keys.signal, cases: [1: source.signal], default: nil).record()
        keys.input.sendNext(1)
        source.input.sendNext(10)
        recorder.dispose()
        source.input.sendNext(11)
        keys.input.sendNext(1)
        XCTAssertEqual(recorder.events, [.next(10)])
        XCTAssertEqual(keys.disposals.value, 1)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testSwitch_releasesEverythingAfterDisposal() {
        let (keys, keyInput) = Signal<String, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            let (a, _) = Signal<Int, TestError>.pipe()
            return Signal.switch(keys, cases: ["a": a.map { _ = token; return $0 }], default: nil).record()
        }
        keyInput.sendNext("a")
        recorder.dispose()
        XCTAssertFalse(token.isAlive)
    }

    func testSwitch_releasesEverythingAfterCompletion() {
        let (recorder, token) = trackingLifetime { token in
            Signal.switch(TestSource(["a"]).signal, cases: ["a": TestSource([1]).signal.map { _ = token; return $0 }], default: nil).record()
        }
        XCTAssertEqual(recorder.events, [.next(1), .completed])
        XCTAssertFalse(token.isAlive)
    }

    // MARK: if

    func testIf_followsTheBranchOfTheLatestBoolean() {
        let (condition, conditionInput) = Signal<Bool, TestError>.pipe()
        let (yes, yesInput) = Signal<String, TestError>.pipe()
        let (no, noInput) = Signal<String, TestError>.pipe()
        let recorder = Signal.if(condition, then: yes, else: no).record()
        yesInput.sendNext("ignored")
        conditionInput.sendNext(true)
        yesInput.sendNext("yes 1")
        noInput.sendNext("ignored")
        conditionInput.sendNext(false)
        yesInput.sendNext("ignored")
        noInput.sendNext("no 1")
        XCTAssertEqual(recorder.events, [.next("yes 1"), .next("no 1")])
    }

    func testIf_resubscribesOnARepeatedBoolean() {
        let yes = TestSource(["yes"])
        let no = TestSource(["no"])
        let recorder = Signal.if(TestSource([true, true, false]).signal, then: yes.signal, else: no.signal).record()
        XCTAssertEqual(recorder.events, [.next("yes"), .next("yes"), .next("no"), .completed])
        XCTAssertEqual(yes.subscriptions.value, 2)
        XCTAssertEqual(no.subscriptions.value, 1)
    }

    func testIf_errorFromTheConditionOrTheBranch() {
        let failingCondition = TestSource([true], end: .error(.first))
        XCTAssertEqual(Signal.if(failingCondition.signal, then: Signal<Int, TestError>.never, else: .never).record().events, [.error(.first)])
        let failingBranch = TestSource([1], end: .error(.second))
        XCTAssertEqual(Signal.if(TestSource([false]).signal, then: .never, else: failingBranch.signal).record().events, [.next(1), .error(.second)])
    }

    func testIf_emptyConditionCompletes() {
        XCTAssertEqual(Signal.if(TestSource<Bool>([]).signal, then: Signal<Int, TestError>.never, else: .never).record().events, [.completed])
    }

    func testIf_disposalDisposesTheConditionAndTheBranch() {
        let (condition, conditionInput) = Signal<Bool, TestError>.pipe()
        let branch = DrivenSource<TestError>()
        let recorder = Signal.if(condition, then: branch.signal, else: .never).record()
        conditionInput.sendNext(true)
        branch.input.sendNext(1)
        recorder.dispose()
        branch.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(branch.disposals.value, 1)
    }

    func testIf_releasesEverythingAfterCompletion() {
        let (recorder, token) = trackingLifetime { token in
            Signal.if(TestSource([true]).signal, then: TestSource([1]).signal.map { _ = token; return $0 }, else: .never).record()
        }
        XCTAssertEqual(recorder.events, [.next(1), .completed])
        XCTAssertFalse(token.isAlive)
    }
}
