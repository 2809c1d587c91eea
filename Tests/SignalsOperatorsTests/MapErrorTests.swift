import Disposables
import Signals
import TestSupport
import XCTest

/// A failure of another type, for the tests that change the failure type.
private struct WrappedError: Error, Equatable, Sendable {
    let inner: TestError
}

final class MapErrorTests: LeakCheckedTestCase {
    func testMapError_transformsTheError() {
        let recorder = TestSource([1], end: .error(.first)).signal.mapError { WrappedError(inner: $0) }.record()
        XCTAssertEqual(recorder.events, [.next(1), .error(WrappedError(inner: .first))])
    }

    func testMapError_valuesAndCompletionPass() {
        let calls = Counter()
        let recorder = TestSource([1, 2]).signal.mapError { error -> WrappedError in
            calls.increment()
            return WrappedError(inner: error)
        }.record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(calls.value, 0)
    }

    func testMapError_disposalMidStream() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.mapError { WrappedError(inner: $0) }.record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testMapError_releasesTheTransformAfterTheError() {
        let (recorder, token) = trackingLifetime { token in
            TestSource<Int>([], end: .error(.second)).signal.mapError { _ = token; return WrappedError(inner: $0) }.record()
        }
        XCTAssertEqual(recorder.events, [.error(WrappedError(inner: .second))])
        XCTAssertFalse(token.isAlive)
    }

    func testPromoteError_givesASignalThatCannotFailAFailureType() {
        let promoted = Signal<Int, Never>.return(1).promoteError(TestError.self)
        XCTAssertEqual(promoted.record().events, [.next(1), .completed])
    }

    func testPromoteError_infersTheFailureTypeFromTheContext() {
        let (pipe, input) = Signal<Int, Never>.pipe()
        let failing = TestSource<Int>([], end: .error(.first)).signal
        let recorder = pipe.promoteError().concat(failing).record()
        input.sendNext(1)
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
    }

    func testPromoteError_disposalMidStream() {
        let source = DrivenSource<Never>()
        let recorder = source.signal.promoteError(TestError.self).record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(source.disposals.value, 1)
    }
}
