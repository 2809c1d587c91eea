import Foundation
import Signals
import XCTest

/// What a subscriber of `ended(source)` receives when `source`, a pipe, is sent 1 then 2 and the
/// callback of the first value runs `end` elsewhere (on a new thread, unless `elsewhere` says
/// otherwise) and waits for it to return: `end` fires what ends the subscription (a trigger, a
/// lifetime's token released). The shape of a callback that waits for the thread ending its own
/// subscription: an end that waited for the delivery would never return (run it under a
/// watchdog), and one that returns must still complete the result once the callback returns.
///
/// - Returns: The values whose callbacks started, and the events in the order the callbacks
///   ended: `[.next(1), .completed]` when the end neither waits nor lets the 2 through.
public func eventsWhenEndedFromACallbackWaitingForIt(
    _ ended: (Signal<Int, Never>) -> Signal<Int, Never>,
    end: @escaping @Sendable () -> Void,
    elsewhere: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { work in Thread.detachNewThread(work) },
    _ message: String = "ending the subscription waited for the callback",
    file: StaticString = #filePath,
    line: UInt = #line
) -> (started: [Int], events: [Event<Int, Never>]) {
    let (source, input) = Signal<Int, Never>.pipe()
    let started = Recorder<Int>()
    let events = Recorder<Event<Int, Never>>()
    _ = ended(source).subscribe(
        next: { value in
            started.record(value)
            let returned = DispatchSemaphore(value: 0)
            elsewhere {
                end()
                returned.signal()
            }
            XCTAssertTrue(returned.waitForSignal(), message, file: file, line: line)
            events.record(.next(value))
        },
        completed: { events.record(.completed) }
    )
    input.sendNext(1)
    input.sendNext(2)
    return (started.values, events.values)
}
