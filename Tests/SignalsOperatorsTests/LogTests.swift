import Signals
import TestSupport
import XCTest

final class LogTests: LeakCheckedTestCase {
    private let lines = Recorder<String>()

    override func setUp() {
        super.setUp()
        SignalLog.sink = { [lines] in lines.record($0) }
    }

    override func tearDown() {
        SignalLog.sink = SignalLog.standardError
        SignalDebug.isEnabled = false
        super.tearDown()
    }

    func testLogAll_writesALinePerEventNamingTheSignal() {
        let source = TestSource([1, 2]).signal
        let recorder = source.logAll().record()
        let signal = description(of: source)
        XCTAssertEqual(recorder.events, [.next(1), .next(2), .completed])
        XCTAssertEqual(lines.values, ["\(signal) next: 1", "\(signal) next: 2", "\(signal) completed"])
        XCTAssertTrue(signal.hasPrefix("<Signal<Int, TestError>: 0x"), signal)
    }

    func testLogAll_writesTheError() {
        let source = TestSource([1], end: .error(.first)).signal
        let recorder = source.logAll().record()
        XCTAssertEqual(recorder.events, [.next(1), .error(.first)])
        XCTAssertEqual(lines.values, ["\(description(of: source)) next: 1", "\(description(of: source)) error: first"])
    }

    func testLogNext_writesOnlyValues() {
        let source = TestSource([1], end: .error(.first)).signal
        XCTAssertEqual(source.logNext().record().events, [.next(1), .error(.first)])
        XCTAssertEqual(lines.values, ["\(description(of: source)) next: 1"])
    }

    func testLogError_writesOnlyTheError() {
        let source = TestSource([1], end: .error(.second)).signal
        XCTAssertEqual(source.logError().record().events, [.next(1), .error(.second)])
        XCTAssertEqual(lines.values, ["\(description(of: source)) error: second"])
        _ = TestSource([1]).signal.logError().record()
        XCTAssertEqual(lines.values.count, 1)
    }

    func testLogCompleted_writesOnlyCompletion() {
        let source = TestSource([1]).signal
        XCTAssertEqual(source.logCompleted().record().events, [.next(1), .completed])
        XCTAssertEqual(lines.values, ["\(description(of: source)) completed"])
        _ = TestSource([1], end: .error(.first)).signal.logCompleted().record()
        XCTAssertEqual(lines.values.count, 1)
    }

    func testLog_aNamedSignalIsNamedInTheLineAndTheResultKeepsTheName() {
        SignalDebug.isEnabled = true
        let source = TestSource([1]).signal.named("numbers")
        let logged = source.logAll()
        XCTAssertEqual(logged.name, "numbers")
        XCTAssertEqual(source.logNext().name, "numbers")
        _ = logged.record()
        let identity = "<Signal<Int, TestError>: \(Unmanaged.passUnretained(source).toOpaque())>"
        XCTAssertEqual(lines.values, ["\(identity) name: numbers next: 1", "\(identity) name: numbers completed"])
    }

    func testLog_disposalStopsTheLines() {
        let source = DrivenSource<TestError>()
        let recorder = source.signal.logAll().record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        source.input.sendCompleted()
        XCTAssertEqual(lines.values, ["\(description(of: source.signal)) next: 1"])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testLog_theSinkCanBeReplacedWhileLinesAreWritten() {
        race(times: 10, threads: 4) { [lines] index in
            if index == 0 {
                SignalLog.sink = { lines.record($0) }
            } else {
                let (pipe, input) = Signal<Int, Never>.pipe()
                pipe.logNext().subscribe()
                input.sendNext(index)
            }
        }
        XCTAssertEqual(lines.values.count, 30)
    }

    /// How a log line names `signal` when it has no name.
    private func description<Value, Failure>(of signal: Signal<Value, Failure>) -> String {
        "<\(type(of: signal)): \(Unmanaged.passUnretained(signal).toOpaque())>"
    }
}
