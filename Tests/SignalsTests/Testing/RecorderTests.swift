import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// `Recorder`, the call log a test captures from any closure.
final class RecorderTests: LeakCheckedTestCase {
    private struct SearchAPI: Sendable {
        var search: @Sendable (String) -> Signal<[String], Never>
    }

    func testRecorder_keepsWhatItIsGivenInOrder() {
        let calls = Recorder<String>()
        XCTAssertEqual(calls.values, [])
        XCTAssertEqual(calls.count, 0)
        XCTAssertNil(calls.last)
        calls.record("r")
        calls("re")
        XCTAssertEqual(calls.values, ["r", "re"])
        XCTAssertEqual(calls.count, 2)
        XCTAssertEqual(calls.last, "re")
        calls.removeAll()
        XCTAssertEqual(calls.values, [])
    }

    func testRecorder_asAFakesCallLogFromASendableClosure() {
        let calls = Recorder<String>()
        let api = SearchAPI(search: { query in
            calls.record(query)
            return .return([query + "ct"])
        })
        let results = Recorder<[String]>()
        let subscription = api.search("rea").subscribe(next: results.callAsFunction)
        XCTAssertEqual(calls.values, ["rea"])
        XCTAssertEqual(results.values, [["react"]])
        XCTAssertTrue(subscription.isDisposed)
    }

    func testRecorderOfVoid_countsCalls() {
        let called = Recorder<Void>()
        let action: @Sendable () -> Void = { called() }
        action()
        action()
        XCTAssertEqual(called.count, 2)
    }

    func testRecorder_fromManyThreadsAtOnce() {
        let recorder = Recorder<Int>()
        let perThread = 2_000
        race(threads: 8) { thread in
            for index in 0..<perThread {
                recorder.record(thread * perThread + index)
                if index.isMultiple(of: 100) { _ = recorder.values.count + recorder.count }
            }
        }
        let values = recorder.values
        XCTAssertEqual(values.count, 8 * perThread)
        XCTAssertEqual(Set(values).count, 8 * perThread, "no value lost or doubled")
        for thread in 0..<8 {
            let own = values.filter { $0 / perThread == thread }
            XCTAssertEqual(own, Array(thread * perThread..<(thread + 1) * perThread), "each thread's values in its order")
        }
    }

    func testRecorder_capturedByASignalsCallbacksOnEveryThread() {
        // A recorder stands where a `@Sendable` callback is expected, whatever thread calls it.
        let recorder = Recorder<Int>()
        let (signal, input) = Signal<Int, Never>.pipe()
        let subscription = signal.subscribe(next: recorder.callAsFunction)
        race(threads: 4) { thread in
            for value in 0..<250 { input.sendNext(thread * 1000 + value) }
        }
        XCTAssertEqual(recorder.count, 1000)
        subscription.dispose()
        input.sendNext(-1)
        XCTAssertEqual(recorder.count, 1000, "nothing after disposal")
    }

    func testRecorder_letsGoOfWhatItHeld() {
        weak var weakRecorder: Recorder<LifetimeToken>?
        let (_, token) = trackingLifetime { token in
            let recorder = Recorder<LifetimeToken>()
            recorder.record(token)
            weakRecorder = recorder
        }
        XCTAssertNil(weakRecorder)
        XCTAssertFalse(token.isAlive)
    }
}
