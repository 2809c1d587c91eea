import Disposables
import Signals
import TestSupport
import XCTest

final class BindTests: LeakCheckedTestCase {
    /// The seed's example (001): each inner signal is disposed when it ends, the source last. The
    /// source sends synchronously, so its disposable exists only after completion has passed, as
    /// in RAC 2.5.
    func testBind_disposesEachInnerWhenItEndsAndTheSourceLast() {
        let log = Recorder<String>()
        let source = Signal<Int, TestError> { subscriber in
            subscriber.sendNext(1)
            subscriber.sendNext(2)
            subscriber.sendCompleted()
            return Disposable { log.record("source dispose") }
        }
        let bound = source.bind {
            { value, _ in
                Signal<Int, TestError> { subscriber in
                    for _ in 0..<value { subscriber.sendNext(value) }
                    subscriber.sendCompleted()
                    return Disposable { log.record("inner dispose") }
                }
            }
        }
        bound.subscribe(next: { log.record("\($0)") }, completed: { log.record("completed") })
        XCTAssertEqual(log.values, ["1", "inner dispose", "2", "2", "inner dispose", "completed", "source dispose"])
    }

    func testBind_makesTheBindingBlockPerSubscription() {
        let source = TestSource([1, 2, 3])
        let bound = source.signal.bind {
            var sum = 0
            return { value, _ in
                sum += value
                return .return(sum)
            }
        }
        XCTAssertEqual(bound.record().values, [1, 3, 6])
        XCTAssertEqual(bound.record().values, [1, 3, 6])
    }

    func testBind_returningNilEndsTheSourceSide() {
        let source = TestSource([1, 2, 3])
        let bound = source.signal.bind {
            { value, _ in value < 2 ? .return(value * 10) : nil }
        }
        XCTAssertEqual(bound.record().events, [.next(10), .completed])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testBind_stopSendsThatSignalThenEndsTheSourceSide() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (inner, innerInput) = Signal<Int, TestError>.pipe()
        let bound = pipe.bind {
            { value, stop in
                stop = true
                return inner.startWith(value)
            }
        }
        let recorder = bound.record()
        input.sendNext(1)
        input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        // The running inner signal goes on; the result completes when it does.
        innerInput.sendNext(5)
        innerInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .next(5), .completed])
    }

    func testBind_completesOnlyWhenSourceAndInnersHaveCompleted() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (inner, innerInput) = Signal<Int, TestError>.pipe()
        let recorder = pipe.bind { { _, _ in inner } }.record()
        input.sendNext(1)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [])
        innerInput.sendNext(7)
        innerInput.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(7), .completed])
    }

    func testBind_innerErrorDisposesEverythingThenIsSent() {
        let log = Recorder<String>()
        let source = DrivenSource<TestError> { log.record("source dispose") }
        let input = source.input
        let bound = source.signal.bind {
            { value, _ in value == 2 ? .error(.second) : .return(value) }
        }
        bound.subscribe(next: { log.record("\($0)") }, error: { log.record("error \($0)") })
        input.sendNext(1)
        input.sendNext(2)
        input.sendNext(3)
        XCTAssertEqual(log.values, ["1", "source dispose", "error second"])
    }

    func testBind_sourceErrorAtTheStart() {
        let bound = TestSource<Int>([], end: .error(.first)).signal.bind { { value, _ in .return(value) } }
        XCTAssertEqual(bound.record().events, [.error(.first)])
    }

    func testBind_emptySourceCompletes() {
        XCTAssertEqual(Signal<Int, TestError>.empty.bind { { value, _ in .return(value) } }.record().events, [.completed])
    }

    func testBind_disposalMidStreamDisposesSourceAndInners() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let innerDisposals = Counter()
        let bound = pipe.bind {
            { _, _ in
                Signal<Int, TestError> { _ in Disposable { innerDisposals.increment() } }
            }
        }
        let recorder = bound.record()
        input.sendNext(1)
        input.sendNext(2)
        recorder.dispose()
        input.sendNext(3)
        XCTAssertEqual(innerDisposals.value, 2)
        XCTAssertEqual(recorder.events, [])
    }
}
