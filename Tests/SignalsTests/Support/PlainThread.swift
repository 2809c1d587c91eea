import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// The name of the thread `subscribeFromAPlainThread` subscribes on.
private let plainThreadName = "plain subscriber"

/// Subscribes to `signal` from a new thread on which no scheduler is current, and waits until the
/// subscription terminates.
func subscribeFromAPlainThread<Value>(
    _ signal: Signal<Value, Never>,
    next: @escaping @Sendable (Value) -> Void = { _ in },
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let done = DispatchSemaphore(value: 0)
    Thread {
        Thread.current.name = plainThreadName
        signal.subscribe(next: next, completed: { done.signal() })
    }.start()
    XCTAssertTrue(done.waitForSignal(), "the subscription did not complete", file: file, line: line)
}

/// Whether the caller runs on a scheduler, off the thread `subscribeFromAPlainThread` used.
var runsOnABackgroundScheduler: Bool {
    Thread.current.name != plainThreadName && Scheduler.current != nil
}
