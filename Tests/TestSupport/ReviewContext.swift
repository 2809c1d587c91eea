import Dispatch
import Foundation
import Schedulers
import XCTest

/// The thread contexts a subscription is made in for the review's tests.
public enum ReviewContext: CaseIterable, CustomStringConvertible {
    case mainThread, plainThread, globalQueue, schedulerBlock

    public var description: String {
        switch self {
        case .mainThread: "the main thread"
        case .plainThread: "a plain Thread"
        case .globalQueue: "a global dispatch queue"
        case .schedulerBlock: "a scheduler's block"
        }
    }

    /// Runs `body` in this context and returns once it has run.
    public func run(_ body: @escaping @Sendable () -> Void) {
        switch self {
        case .mainThread:
            body()
        case .plainThread:
            onAPlainThread(body)
        case .globalQueue:
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                body()
                done.signal()
            }
            XCTAssertTrue(done.waitForSignal())
        case .schedulerBlock:
            let scheduler = QueueScheduler(name: "review 27 context")
            let done = DispatchSemaphore(value: 0)
            scheduler.schedule {
                body()
                done.signal()
            }
            XCTAssertTrue(done.waitForSignal())
        }
    }
}
