import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

/// Shape 6 of "disposal never waits", over a pipe: a producer thread sends nonstop while the main
/// thread subscribes and disposes 2,000 times. No callback of the long-lived subscriber runs on the
/// main thread, every cycle completes, and every disposed subscription's closure is freed.
final class PipeFloodTests: LeakCheckedTestCase {
    /// Shape 6: `Signal.pipe()` flooded from a producer thread while the main thread subscribes and
    /// disposes 2,000 times; the long-lived subscriber's callbacks never run on the main thread.
    func testPipeFlood_mainThreadSubscribesAndDisposes_deliversNoOtherSubscriptionsValue() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            "a pipe flooded from a producer thread while the main thread subscribes and disposes",
            source: signal, send: { input.sendNext($0) }
        )
        for failure in failures { XCTFail(failure) }
    }

    /// Shape 6: as the pipe flood, the main thread subscribing through `map`, whose disposal
    /// reaches the pipe's member through the operator.
    func testPipeFlood_mainThreadSubscribesThroughMapAndDisposes_deliversNoOtherSubscriptionsValue() {
        let (signal, input) = Signal<Int, Never>.pipe()
        let mapped = signal.map { $0 + 1 }
        let failures = floodWhileTheMainThreadSubscribesAndDisposes(
            "a pipe flooded from a producer thread while the main thread subscribes through map and disposes",
            source: mapped, send: { input.sendNext($0) }
        )
        for failure in failures { XCTFail(failure) }
    }
}
