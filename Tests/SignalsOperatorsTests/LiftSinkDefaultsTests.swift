@testable import Signals
import TestSupport
import XCTest

/// A one-input operator written the shortest way, on either lift path, overrides only what it
/// does to a value: its errors and its completion still reach the subscriber. (The bases they
/// would be dropped by, `OperatorSink` and `SubscriberSink`, cannot be subclassed outside their
/// files, so no operator can be written on them.)
final class LiftSinkDefaultsTests: LeakCheckedTestCase {
    func testPassthroughSink_overridingOnlyValues_forwardsTheErrorAndCompletion() {
        let failing = TestSource([1, 2], end: .error(.first)).signal.liftSink { DoublingSink($0) }
        XCTAssertEqual(failing.record().events, [.next(2), .next(4), .error(.first)])
        let completing = TestSource([1, 2]).signal.liftSink { DoublingSink($0) }
        XCTAssertEqual(completing.record().events, [.next(2), .next(4), .completed])
    }

    func testFailureChangingSink_overridingOnlyValues_forwardsTheConvertedErrorAndCompletion() {
        let failing: Signal<Int, WrappedError> = TestSource([1, 2], end: .error(.second)).signal.liftSink { WrappingSink($0) }
        XCTAssertEqual(failing.record().events, [.next(1), .next(2), .error(WrappedError(wrapped: .second))])
        let completing: Signal<Int, WrappedError> = TestSource([1, 2]).signal.liftSink { WrappingSink($0) }
        XCTAssertEqual(completing.record().events, [.next(1), .next(2), .completed])
    }

    func testPassthroughSubscriberSink_overridingOnlyValues_forwardsTheErrorAndCompletion() {
        let failing = TestSource([1, 2], end: .error(.first)).signal.liftSink(throughSubscriber: { DoublingSubscriberSink($0) })
        XCTAssertEqual(failing.record().events, [.next(2), .next(4), .error(.first)])
        let completing = TestSource([1, 2]).signal.liftSink(throughSubscriber: { DoublingSubscriberSink($0) })
        XCTAssertEqual(completing.record().events, [.next(2), .next(4), .completed])
    }

    func testFailureChangingSubscriberSink_overridingOnlyValues_routesTheErrorAndForwardsCompletion() {
        let failing: Signal<Int, WrappedError> = TestSource([1, 2], end: .error(.second)).signal
            .liftSink(throughSubscriber: { WrappingSubscriberSink($0) })
        XCTAssertEqual(failing.record().events, [.next(1), .next(2), .error(WrappedError(wrapped: .second))])
        let completing: Signal<Int, WrappedError> = TestSource([1, 2]).signal
            .liftSink(throughSubscriber: { WrappingSubscriberSink($0) })
        XCTAssertEqual(completing.record().events, [.next(1), .next(2), .completed])
    }
}

/// The error of the operators that change the failure type.
private struct WrappedError: Error, Equatable {
    let wrapped: TestError
}

/// Doubles each value; nothing else.
private final class DoublingSink: PassthroughSink<Int, Int, TestError>, @unchecked Sendable {
    override func receive(_ value: Int) {
        downstream.receive(value * 2)
    }
}

/// Passes each value on; its errors become ``WrappedError``s, as its initialization says.
private final class WrappingSink: FailureChangingSink<Int, TestError, Int, WrappedError>, @unchecked Sendable {
    init(_ downstream: Sink<Int, WrappedError>) {
        super.init(downstream, convertingErrors: WrappedError.init(wrapped:))
    }

    override func receive(_ value: Int) {
        downstream.receive(value)
    }
}

/// Doubles each value, through the subscriber; nothing else.
private final class DoublingSubscriberSink: PassthroughSubscriberSink<Int, Int, TestError>, @unchecked Sendable {
    override func receive(_ value: Int) {
        output.sendNext(value * 2)
    }
}

/// Passes each value on, through the subscriber; its errors are sent as ``WrappedError``s, the
/// route its initialization gives.
private final class WrappingSubscriberSink: FailureChangingSubscriberSink<Int, TestError, Int, WrappedError>, @unchecked Sendable {
    init(_ output: Subscriber<Int, WrappedError>) {
        super.init(output, routingErrors: { output, error in output.sendError(WrappedError(wrapped: error)) })
    }

    override func receive(_ value: Int) {
        output.sendNext(value)
    }
}
