import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

final class DebugTests: LeakCheckedTestCase {
    func testDebug_logsTheSubscriptionEachValueAndCompletion() {
        XCTAssertTrue(Thread.isMainThread, "the expected lines name the main thread")
        let lines = Recorder<String>()
        let recorder = TestSource([1, 2]).signal.debug("numbers", to: { lines.record($0) }).record()
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
        recorder.dispose()
        // No disposal line: the subscription ended by its completion.
        XCTAssertEqual(lines.values, [
            "numbers: subscribed [main thread]",
            "numbers: next(1) [main thread]",
            "numbers: next(2) [main thread]",
            "numbers: completed [main thread]",
        ])
    }

    func testDebug_logsTheError() {
        let lines = Recorder<String>()
        let recorder = TestSource([1], end: .error(.first)).signal.debug("failing", to: { lines.record($0) }).record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
        XCTAssertEqual(lines.values, [
            "failing: subscribed [main thread]",
            "failing: next(1) [main thread]",
            "failing: error(first) [main thread]",
        ])
    }

    func testDebug_logsADisposalFromOutsideAndNothingAfterIt() {
        let lines = Recorder<String>()
        let source = PipeSource()
        let recorder = source.signal.debug("pipe", to: { lines.record($0) }).record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        source.input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(1)])
        XCTAssertEqual(lines.values, [
            "pipe: subscribed [main thread]",
            "pipe: next(1) [main thread]",
            "pipe: disposed [main thread]",
        ])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testDebug_logsTheDisposalByAnOperatorDownstream() {
        // take(1) disposes the subscription once it has its value: the source had not ended.
        let lines = Recorder<String>()
        let recorder = TestSource([1, 2, 3]).signal.debug("taken", to: { lines.record($0) }).take(1).record()
        XCTAssertEqual(recorder.events, [.next(1), .completed])
        XCTAssertEqual(lines.values, [
            "taken: subscribed [main thread]",
            "taken: next(1) [main thread]",
            "taken: disposed [main thread]",
        ])
    }

    func testDebug_namesTheThreadOfEachLine() {
        let lines = Recorder<String>()
        let (signal, input) = Signal<Int, TestError>.pipe()
        let subscription = signal.debug("threads", to: { lines.record($0) }).subscribe()
        onANamedThread("debug worker") { input.sendNext(1) }
        let queue = QueueScheduler(name: "debug queue")
        let sent = DispatchSemaphore(value: 0)
        queue.schedule {
            input.sendNext(2)
            sent.signal()
        }
        XCTAssertTrue(sent.waitForSignal())
        onAPlainThread { subscription.dispose() }
        let logged = lines.values
        XCTAssertEqual(logged.count >= 3 ? [logged[0], logged[2]] : logged, [
            "threads: subscribed [main thread]",
            "threads: next(2) [scheduler debug queue]",
        ])
        // On Linux, Foundation now and then reads a name set inside the thread back as the
        // process's, and the line names the thread by its address instead: seen under the
        // sanitizers, and in a debug run on a loaded machine.
        let named = logged.count > 1 && logged[1] == "threads: next(1) [thread debug worker]"
        let unnamed = logged.count > 1 && logged[1].hasPrefix("threads: next(1) [thread 0x")
        #if os(Linux)
        XCTAssertTrue(named || unnamed, logged.count > 1 ? logged[1] : "no second line")
        #else
        XCTAssertTrue(named, logged.count > 1 ? logged[1] : "no second line")
        #endif
        XCTAssertEqual(logged.count, 4)
        let disposal = logged.last ?? ""
        XCTAssertTrue(disposal.hasPrefix("threads: disposed [thread 0x"), disposal)
        XCTAssertNotEqual(disposal, "threads: disposed [main thread]")
    }

    func testDebug_withoutANameUsesTheFileAndLineOfTheCall() {
        let lines = Recorder<String>()
        let line = #line + 1
        let recorder = Signal<Int, TestError>.empty.debug(to: { lines.record($0) }).record()
        XCTAssertEqual(recorder.events, [.completed])
        XCTAssertEqual(lines.values, [
            "SignalsOperatorsTests/DebugTests.swift:\(line): subscribed [main thread]",
            "SignalsOperatorsTests/DebugTests.swift:\(line): completed [main thread]",
        ])
    }

    func testDebug_eachSubscriptionLogsSeparately() {
        let lines = Recorder<String>()
        let signal = TestSource([1]).signal.debug("twice", to: { lines.record($0) })
        _ = signal.record()
        _ = signal.record()
        XCTAssertEqual(lines.values.count, 6)
        XCTAssertEqual(lines.values.filter { $0 == "twice: subscribed [main thread]" }.count, 2)
    }

    func testDebug_releasesTheSubscriptionAfterDisposal() {
        let (pipe, input) = Signal<Int, TestError>.pipe()
        let (recorder, token) = trackingLifetime { token in
            pipe.map { _ = token; return $0 }.debug("released", to: { _ in }).record()
        }
        input.sendNext(1)
        XCTAssertTrue(token.isAlive)
        recorder.dispose()
        XCTAssertFalse(token.isAlive)
    }

    func testDebug_anErrorRacingADisposalFromAnotherThread_logsOneOfTheTwo() {
        let rounds = BuildKind.raceRounds(optimized: 500, debug: 200, sanitized: 50)
        for round in 0..<rounds {
            let lines = Recorder<String>()
            let (source, input) = Signal<Int, TestError>.pipe()
            let subscription = source.debug("race", to: { lines.record($0) }).subscribe(error: { _ in })
            let go = DispatchSemaphore(value: 0)
            let disposer = startThread("disposes") {
                go.wait()
                subscription.dispose()
            }
            go.signal()
            input.sendError(.first)
            XCTAssertTrue(eventually { disposer.isSet })
            let ends = lines.values.filter { $0.hasPrefix("race: disposed") || $0.hasPrefix("race: error") }
            XCTAssertEqual(ends.count, 1, "round \(round): \(lines.values)")
        }
    }
}

/// Runs `body` on a new thread called `name`, and waits until it returns.
private func onANamedThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
    onAPlainThread {
        Thread.current.name = name
        // Read back once: under ThreadSanitizer on Linux, Foundation's first read of a name set
        // this way inside a `debug` line came back as the process's (the line named the thread by
        // its address); read here first, it holds.
        _ = Thread.current.name
        body()
    }
}
