import Signals
import TestSupport
import XCTest

final class ReduceApplyTests: LeakCheckedTestCase {
    func testReduceApply_callsTheFunctionWithItsArguments() {
        let (calls, input) = Signal<(@Sendable (Int, Int) -> Int, (Int, Int)), Never>.pipe()
        let recorder = calls.reduceApply().record()
        input.sendNext(({ $0 + $1 }, (2, 3)))
        input.sendNext(({ $0 * $1 }, (2, 3)))
        input.sendCompleted()
        XCTAssertEqual(recorder.events, [.next(5), .next(6), .completed])
    }

    func testReduceApply_theExampleOfRAC() {
        let threeArguments = TestSource<(@Sendable (Int, Int, Int) -> Int, (Int, Int, Int))>([({ $0 + $1 * $2 }, (2, 3, 8))])
        XCTAssertEqual(threeArguments.signal.reduceApply().record().events, [.next(26), .completed])
        let oneArgument = TestSource<(@Sendable (Int) -> Int, Int)>([({ $0 * 10 }, 9)])
        XCTAssertEqual(oneArgument.signal.reduceApply().record().events, [.next(90), .completed])
    }

    func testReduceApply_everyArity() {
        XCTAssertEqual(TestSource<(@Sendable (Int, Int, Int, Int) -> Int, (Int, Int, Int, Int))>([({ $0 + $1 + $2 + $3 }, (1, 2, 3, 4))]).signal.reduceApply().record().values, [10])
        XCTAssertEqual(TestSource<(@Sendable (Int, Int, Int, Int, Int) -> Int, (Int, Int, Int, Int, Int))>([({ $0 + $1 + $2 + $3 + $4 }, (1, 2, 3, 4, 5))]).signal.reduceApply().record().values, [15])
        let six = TestSource<(@Sendable (String, Int, Int, Int, Int, Bool) -> String, (String, Int, Int, Int, Int, Bool))>([
            ({ "\($0)\($1 + $2 + $3 + $4)\($5)" }, ("sum", 1, 2, 3, 4, true)),
        ])
        XCTAssertEqual(six.signal.reduceApply().record().values, ["sum10true"])
    }

    func testReduceApply_functionsThatAreNotSendable() {
        let calls = Signal<((Int, Int) -> Int, (Int, Int)), TestError> { subscriber in
            subscriber.sendNext(({ $0 - $1 }, (5, 3)))
            subscriber.sendNext(({ $0 * $1 }, (5, 3)))
            subscriber.sendCompleted()
            return nil
        }
        XCTAssertEqual(calls.reduceApply().record().events, [.next(2), .next(15), .completed])
        let single = Signal<((String) -> Int, String), Never> { subscriber in
            subscriber.sendNext(({ $0.count }, "four"))
            return nil
        }
        XCTAssertEqual(single.reduceApply().record().values, [4])
    }

    func testReduceApply_aFunctionOfOneTupleTakesTheTupleWhole() {
        let calls = TestSource<(@Sendable ((Int, Int)) -> Int, (Int, Int))>([({ pair in pair.0 * pair.1 }, (2, 4))])
        XCTAssertEqual(calls.signal.reduceApply().record().values, [8])
    }

    func testReduceApply_passesErrorsOn() {
        let calls = TestSource<(@Sendable (Int, Int) -> Int, (Int, Int))>([({ $0 + $1 }, (1, 1))], end: .error(.second))
        XCTAssertEqual(calls.signal.reduceApply().record().events, [.next(2), .error(.second)])
    }

    func testReduceApply_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        let source = DrivenSource<TestError>()
        let add: @Sendable (Int, Int) -> Int = { $0 + $1 }
        let recorder = source.signal.map { (add, ($0, 10)) }.reduceApply().record()
        source.input.sendNext(1)
        recorder.dispose()
        source.input.sendNext(2)
        XCTAssertEqual(recorder.events, [.next(11)])
        XCTAssertEqual(source.disposals.value, 1)
    }
}
