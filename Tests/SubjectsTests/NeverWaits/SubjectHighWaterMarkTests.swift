import Disposables
import Foundation
import Signals
@testable import Subjects
import TestSupport
import XCTest

// `SerialInput.highWaterMark` (package: the most values from other threads ever queued at once)
// and `SerialInput.bound` (package static: K, the bound on that queue) come with the never-waits
// rewrite of the delivery machinery. Until `SerialInput` has them, the defaults below stand in
// and the test fails with a message that says so; once it has them, its own members are the
// witnesses of this protocol (a type's own member wins over a protocol extension's), and the test
// checks the real figures, with no change here. This file can then drop the protocol and read
// `subject.input.highWaterMark` and `SerialInput<Int, Never>.bound` directly.

/// What the tests read of a `SerialInput`'s queue.
protocol HighWaterMarkReporting {
    /// The most values from other threads ever queued at once.
    var highWaterMark: Int { get }
    /// The bound the high-water mark stays within.
    static var bound: Int { get }
}

extension HighWaterMarkReporting {
    /// Stands in until `SerialInput` has its own: an impossible figure the test reports.
    var highWaterMark: Int { Int.min }
    /// Stands in until `SerialInput` has its own: an impossible figure the test reports.
    static var bound: Int { Int.min }
}

extension SerialInput: HighWaterMarkReporting {}

/// The high-water mark of `input` and the bound, through the protocol's witnesses.
private func highWater<Input: HighWaterMarkReporting>(of input: Input) -> (mark: Int, bound: Int) {
    (input.highWaterMark, Input.bound)
}

/// Shape 6 of "disposal never waits", the bound on a subject's queue: while a producer thread
/// floods a `Subject` and the main thread subscribes and disposes 2,000 times, the most values
/// queued at once on the subject's input stays within `SerialInput.bound`.
final class SubjectHighWaterMarkTests: XCTestCase {
    /// Shape 6: a `Subject` flooded from a producer thread while the main thread subscribes and
    /// disposes 2,000 times: its input's high-water mark stays within `SerialInput.bound`, and no
    /// callback of the long-lived subscriber runs on the main thread.
    func testSubjectFlood_mainThreadSubscribesAndDisposes_queueStaysWithinTheBound() {
        let subject = Subject<Int, Never>()
        let shape = "a Subject flooded from a producer thread while the main thread subscribes and disposes: the queue's high-water mark"
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            shape, source: subject, send: { subject.sendNext($0) },
            afterFlood: {
                let (mark, bound) = highWater(of: subject.input)
                guard mark != Int.min, bound != Int.min else {
                    return ["\(shape): SerialInput has no highWaterMark and bound yet (package var highWaterMark: Int, package static var bound: Int)"]
                }
                var failures: [String] = []
                if bound < 1 { failures.append("\(shape): SerialInput.bound is \(bound)") }
                if mark > bound { failures.append("\(shape): the high-water mark \(mark) is beyond the bound \(bound)") }
                return failures
            }
        )
        for failure in failures { XCTFail(failure) }
    }

    /// Shape 6: as the flood above, with sends from two producer threads at once besides the main
    /// thread's subscribe and dispose loop: the high-water mark stays within the bound.
    func testSubjectFloodFromTwoProducers_mainThreadSubscribesAndDisposes_queueStaysWithinTheBound() {
        let subject = Subject<Int, Never>()
        let shape = "a Subject flooded from two producer threads while the main thread subscribes and disposes: the queue's high-water mark"
        let stop = Flag()
        let second = startThread("second producer: floods") {
            var value = 0
            while !stop.isSet {
                subject.sendNext(-value)
                value &+= 1
            }
        }
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            shape, source: subject, send: { subject.sendNext($0) },
            afterFlood: {
                let (mark, bound) = highWater(of: subject.input)
                guard mark != Int.min, bound != Int.min else {
                    return ["\(shape): SerialInput has no highWaterMark and bound yet (package var highWaterMark: Int, package static var bound: Int)"]
                }
                return mark > bound ? ["\(shape): the high-water mark \(mark) is beyond the bound \(bound)"] : []
            }
        )
        stop.set()
        spinMainRunLoop(untilAllSet: second)
        for failure in failures { XCTFail(failure) }
    }
}
