import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

/// Shape 5 of "disposal never waits": a `dispose()` that arrives while a terminal event runs the
/// subscription's disposal actions (the create block's disposable, which blocks until the
/// disposing thread has returned from dispose) returns without waiting for the terminal event,
/// and the `completed` or `error` callback is not called after dispose returned.
///
/// (This is the opposite of `DeliveryTests.testDisposeWhileATerminalEventIsOnItsWay_returnsAfterIt`,
/// written to the old rule, under which such a dispose waited for the terminal event.)
final class TerminalRacingDisposeTests: LeakCheckedTestCase {
    private enum Terminal: String {
        case completed = "completion"
        case error
    }

    private enum Path: String {
        /// The create block's subscriber is sent the terminal event directly.
        case createBlock = "sent to the create block's subscriber"
        /// The same, seen through `map`.
        case createBlockThroughMap = "sent to the create block's subscriber, seen through map"
        /// A pipe the create block subscribed its subscriber to is sent the terminal event.
        case pipeIntoCreateBlock = "sent into a pipe the create block forwards"
    }

    private enum Disposer: String {
        case mainThread = "disposed from the main thread"
        case plainThread = "disposed from a plain thread"
    }

    private func check(
        _ terminal: Terminal,
        _ path: Path,
        _ disposer: Disposer = .mainThread,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let shape = "\(terminal.rawValue) \(path.rawValue), \(disposer.rawValue) while the create block's disposable blocks"
        let watchdog = Watchdog(shape, file: file, line: line)
        defer { watchdog.cancel() }
        let actionsEntered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let box = SubscriberBox<Int, TestError>()
        let (pipe, pipeInput) = Signal<Int, TestError>.pipe()
        // The subscription's disposal actions block until the disposing thread has returned.
        let created = Signal<Int, TestError> { subscriber in
            box.subscriber = subscriber
            let forwarding = path == .pipeIntoCreateBlock ? pipe.subscribe(subscriber) : nil
            return Disposable {
                forwarding?.dispose()
                actionsEntered.signal()
                release.wait()
            }
        }
        let signal = path == .createBlockThroughMap ? created.map { $0 } : created
        let disposeReturned = Flag()
        let lateCallbacks = Counter()
        let terminalCallbacks = Counter()
        let (subscription, token) = trackingLifetime { token in
            signal.subscribe(
                error: { _ in
                    if disposeReturned.isSet { lateCallbacks.increment() }
                    withExtendedLifetime(token) {}
                    terminalCallbacks.increment()
                },
                completed: {
                    if disposeReturned.isSet { lateCallbacks.increment() }
                    withExtendedLifetime(token) {}
                    terminalCallbacks.increment()
                }
            )
        }
        XCTAssertNotNil(box.subscriber, "\(shape): the create block did not run at once on the main thread", file: file, line: line)

        // T1 sends the terminal event; it runs the disposal actions, which block.
        let t1Finished = startThread("T1: sends the terminal event") {
            switch (terminal, path) {
            case (.completed, .pipeIntoCreateBlock): pipeInput.sendCompleted()
            case (.error, .pipeIntoCreateBlock): pipeInput.sendError(.first)
            case (.completed, _): box.subscriber?.sendCompleted()
            case (.error, _): box.subscriber?.sendError(.first)
            }
        }
        let dispose: @Sendable () -> Void = {
            actionsEntered.wait()
            subscription.dispose()
            disposeReturned.set()
            release.signal()
        }
        switch disposer {
        case .mainThread:
            dispose()
            spinMainRunLoop(untilAllSet: t1Finished)
        case .plainThread:
            spinMainRunLoop(untilAllSet: t1Finished, startThread("T2: disposes", dispose))
        }

        XCTAssertEqual(lateCallbacks.value, 0, "\(shape): the terminal callback was called after dispose() returned", file: file, line: line)
        XCTAssertLessThanOrEqual(terminalCallbacks.value, 1, "\(shape)", file: file, line: line)
        XCTAssertTrue(
            eventually { !token.isAlive },
            "\(shape): the subscription's closures are still alive, though the create block's subscriber is all that is kept",
            file: file, line: line
        )
        box.subscriber = nil
    }

    /// Shape 5: completion sent to the create block's subscriber on T1 runs the create block's
    /// disposable, which blocks until the main thread's `dispose()` has returned.
    func testCompletion_disposedFromMainWhileTheCreateBlocksDisposableRuns_neverWaits() {
        check(.completed, .createBlock)
    }

    /// Shape 5: an error sent to the create block's subscriber on T1 runs the create block's
    /// disposable, which blocks until the main thread's `dispose()` has returned.
    func testError_disposedFromMainWhileTheCreateBlocksDisposableRuns_neverWaits() {
        check(.error, .createBlock)
    }

    /// Shape 5: as the completion case, disposed from a plain thread T2.
    func testCompletion_disposedFromAPlainThreadWhileTheCreateBlocksDisposableRuns_neverWaits() {
        check(.completed, .createBlock, .plainThread)
    }

    /// Shape 5: as the error case, disposed from a plain thread T2.
    func testError_disposedFromAPlainThreadWhileTheCreateBlocksDisposableRuns_neverWaits() {
        check(.error, .createBlock, .plainThread)
    }

    /// Shape 5: completion to the create block's subscriber, subscribed through `map`, disposed
    /// from the main thread while the create block's disposable runs.
    func testCompletionThroughMap_disposedWhileTheCreateBlocksDisposableRuns_neverWaits() {
        check(.completed, .createBlockThroughMap)
    }

    /// Shape 5: completion sent into a pipe that the create block forwards to its subscriber, so
    /// the terminal event comes through the pipe's delivery on T1; disposed from the main thread
    /// while the create block's disposable runs.
    func testCompletionThroughAPipe_disposedWhileTheCreateBlocksDisposableRuns_neverWaits() {
        check(.completed, .pipeIntoCreateBlock)
    }

    /// Shape 5: an error sent into a pipe that the create block forwards, disposed from the main
    /// thread while the create block's disposable runs.
    func testErrorThroughAPipe_disposedWhileTheCreateBlocksDisposableRuns_neverWaits() {
        check(.error, .pipeIntoCreateBlock)
    }
}
