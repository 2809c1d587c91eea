import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

/// The signals made from async work in the thread matrix: subscribed from every context (a
/// `Task` too), then
/// disposed from another thread, inside their first callback, or let go of. Their events come
/// from a task, so the matrix waits for them (as it does for the rows that hop schedulers).
///
/// Over the synchronous source only: these signals subscribe to their source from their task,
/// after the matrix has sent into the hot one, so they would see none of its values, and a
/// pipe never ends, so their task would wait until disposal.
final class AsyncThreadMatrixTests: XCTestCase {
    func testAsyncSignalsInTheMatrix() {
        let rows = [
            row("Signal(values)", { source in Signal(source.values) },
                sync: [.next(1), .next(2), .next(3), .completed], hot: nil),
            row("Signal(values(bufferingPolicy: .bufferingOldest(3))) subscribed on a queue", { source in
                // The source may send all three before the loop reads: a buffer of three keeps them.
                Signal(source.subscribe(on: ThreadMatrix.queue).values(bufferingPolicy: .bufferingOldest(3)))
            }, sync: [.next(1), .next(2), .next(3), .completed], hot: nil),
            row("Signal(emitting:) over values", { source in
                Signal(emitting: { send throws(TestError) in
                    for try await value in source.values { send(value * 10) }
                })
            }, sync: [.next(10), .next(20), .next(30), .completed], hot: nil),
            row("Signal { await first() }", { source in
                Signal { () async throws(TestError) -> Int in try await source.first() ?? 0 }
            }, sync: [.next(1), .completed], hot: nil),
            row("Signal { await collect() }", { source in
                Signal { () async throws(TestError) -> [Int] in try await source.collect() }
            }, sync: [.next([1, 2, 3]), .completed], hot: nil),
            row("Signal(values) of tryMap", { source in
                Signal(source.tryMap { value throws(TestError) in
                    if value == 3 { throw .second }
                    return value
                }.values)
            }, sync: [.next(1), .next(2), .error(.second)], hot: nil),
        ]
        for failure in ThreadMatrix.failures(of: rows, contexts: MatrixContext.allCases, sources: [.synchronous]) {
            XCTFail(failure)
        }
    }
}
