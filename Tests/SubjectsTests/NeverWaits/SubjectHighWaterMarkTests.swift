import Disposables
import Foundation
import Signals
@testable import Subjects
import TestSupport
import XCTest

/// The high-water mark of `input`, and the most it may reach with `senders` threads sending from
/// outside any delivery: `SerialInput.bound`, plus the value of each sender waiting at the bound.
private func highWater(of input: SerialInput<Int, Never>, senders: Int) -> (mark: Int, limit: Int) {
    (input.highWaterMark, SerialInput<Int, Never>.bound + senders)
}

/// Shape 6 of "disposal never waits", the bound on a subject's queue: while a producer thread
/// floods a `Subject` and the main thread subscribes and disposes 2,000 times, the most values
/// queued at once on the subject's input stays within `SerialInput.bound`, plus the value of each
/// sender waiting at the bound.
final class SubjectHighWaterMarkTests: LeakCheckedTestCase {
    /// Shape 6: a `Subject` flooded from a producer thread while the main thread subscribes and
    /// disposes 2,000 times: its input's high-water mark stays within `SerialInput.bound`, and no
    /// callback of the long-lived subscriber runs on the main thread.
    func testSubjectFlood_mainThreadSubscribesAndDisposes_queueStaysWithinTheBound() {
        let subject = Subject<Int, Never>()
        let shape = "a Subject flooded from a producer thread while the main thread subscribes and disposes: the queue's high-water mark"
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            shape, source: subject, send: { subject.sendNext($0) },
            afterFlood: {
                let (mark, limit) = highWater(of: subject.input, senders: 1)
                return mark > limit ? ["\(shape): the high-water mark \(mark) is beyond \(limit)"] : []
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
                let (mark, limit) = highWater(of: subject.input, senders: 2)
                return mark > limit ? ["\(shape): the high-water mark \(mark) is beyond \(limit)"] : []
            }
        )
        stop.set()
        spinMainRunLoop(untilAllSet: second)
        for failure in failures { XCTFail(failure) }
    }
}
