import Signals
import TestSupport
import XCTest

final class IgnoreValuesTests: LeakCheckedTestCase {
    func testIgnoreValues_sendsOnlyCompletion() {
        XCTAssertEqual(TestSource([1, 2, 3]).signal.ignoreValues().record().events, [.completed])
    }

    func testIgnoreValues_emptySource() {
        XCTAssertEqual(TestSource<Int>([]).signal.ignoreValues().record().events, [.completed])
    }

    func testIgnoreValues_sendsTheError() {
        XCTAssertEqual(TestSource<Int>([], end: .error(.first)).signal.ignoreValues().record().events, [.error(.first)])
        XCTAssertEqual(TestSource([1, 2], end: .error(.second)).signal.ignoreValues().record().events, [.error(.second)])
    }

    func testIgnoreValues_keepsTheValueType() {
        let signal: Signal<String, TestError> = TestSource(["a"]).signal.ignoreValues()
        XCTAssertEqual(signal.record().events, [.completed])
    }

    func testIgnoreValues_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.ignoreValues().record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testIgnoreValues_releasesTheChainAfterCompletionAndDisposal() {
        weak var weakSignal: Signal<Int, TestError>?
        let (completed, completedToken) = trackingLifetime { token -> EventRecorder<Int, TestError> in
            let signal = TestSource([1]).signal.map { _ = token; return $0 }.ignoreValues()
            weakSignal = signal
            return signal.record()
        }
        XCTAssertEqual(completed.events, [.completed])
        XCTAssertNil(weakSignal)
        XCTAssertFalse(completedToken.isAlive)

        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (disposed, disposedToken) = trackingLifetime { token in pipe.map { _ = token; return $0 }.ignoreValues().record() }
        input.sendNext(1)
        disposed.dispose()
        XCTAssertFalse(disposedToken.isAlive)
    }
}
