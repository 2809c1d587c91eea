import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

/// The signals made from async work in the thread matrix: subscribed from every context (a
/// `Task` too), then
/// disposed from another thread, inside their first callback, or let go of, and the blocking
/// modes; and the loops over `values` in the blocking modes, ended by cancelling their task. Their events come
/// from a task, so the matrix waits for them (as it does for the rows that hop schedulers).
///
/// Over the synchronous source only: these signals subscribe to their source from their task,
/// after the matrix has sent into the hot one, so they would see none of its values, and a
/// pipe never ends, so their task would wait until disposal.
final class AsyncThreadMatrixTests: LeakCheckedTestCase {
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
                Signal { () async throws(TestError) -> Int in try await source.firstValue() ?? 0 }
            }, sync: [.next(1), .completed], hot: nil),
            row("Signal { await collect() }", { source in
                Signal { () async throws(TestError) -> [Int] in try await source.allValues() }
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

    /// `values` with each buffering policy, in signals made from them: a buffer of three keeps
    /// every value of the source; one of none keeps only those that find the loop waiting, which
    /// depends on timing. `ThreadMatrix.lightRounds` per cell in modes (a)-(c): their delivery is
    /// the rows' above.
    func testEveryBufferingPolicyInTheMatrix() {
        let every: [Event<Int, TestError>] = [.next(1), .next(2), .next(3), .completed]
        let rows = [
            row("Signal(values(bufferingPolicy: .unbounded))", { source in Signal(source.values(bufferingPolicy: .unbounded)) },
                sync: every, hot: nil),
            row("Signal(values(bufferingPolicy: .bufferingNewest(3))) subscribed on a queue", { source in
                Signal(source.subscribe(on: ThreadMatrix.queue).values(bufferingPolicy: .bufferingNewest(3)))
            }, sync: every, hot: nil),
            row("Signal(values(bufferingPolicy: .bufferingNewest(0)))", { source in Signal(source.values(bufferingPolicy: .bufferingNewest(0))) },
                sync: nil, hot: nil),
            row("Signal(values(bufferingPolicy: .bufferingOldest(0)))", { source in Signal(source.values(bufferingPolicy: .bufferingOldest(0))) },
                sync: nil, hot: nil),
        ].map { $0.inRounds(ThreadMatrix.lightRounds) }
        for failure in ThreadMatrix.failures(of: rows, contexts: MatrixContext.allCases, sources: [.synchronous]) {
            XCTFail(failure)
        }
        let loops = [
            AsyncLoopRow("for try await in values(bufferingPolicy: .unbounded)") { signal, body, _ in
                do { for try await value in signal.values(bufferingPolicy: .unbounded) { body(value) } } catch {}
            },
            AsyncLoopRow("for try await in values(bufferingPolicy: .bufferingNewest(3))") { signal, body, _ in
                do { for try await value in signal.values(bufferingPolicy: .bufferingNewest(3)) { body(value) } } catch {}
            },
        ]
        for failure in AsyncLoopMatrix.failures(of: loops) {
            XCTFail(failure)
        }
    }

    /// The consuming side of the bridge in the matrix's blocking modes: a task's `for await`
    /// loop over `values`, whose body blocks until the task's cancellation (from another thread,
    /// from the main thread while the body is in `DispatchQueue.main.sync`, inside another
    /// subscription's callback, or by releasing the last reference to a `ScopedDisposable` of
    /// it) has returned (see `AsyncLoopMatrix` for what each round checks).
    func testAsyncLoopsBlockedUntilTheirTaskIsCancelled() {
        let rows = [
            AsyncLoopRow("for try await in values") { signal, body, _ in
                do { for try await value in signal.values { body(value) } } catch {}
            },
            AsyncLoopRow("for try await in values(bufferingPolicy: .bufferingOldest(3))") { signal, body, _ in
                do { for try await value in signal.values(bufferingPolicy: .bufferingOldest(3)) { body(value) } } catch {}
            },
            AsyncLoopRow("for try await in values(bufferingPolicy: .bufferingNewest(1))", getsEveryValue: false) { signal, body, _ in
                do { for try await value in signal.values(bufferingPolicy: .bufferingNewest(1)) { body(value) } } catch {}
            },
            AsyncLoopRow("for try await in values(bufferingPolicy: .bufferingOldest(1))", getsEveryValue: false) { signal, body, _ in
                do { for try await value in signal.values(bufferingPolicy: .bufferingOldest(1)) { body(value) } } catch {}
            },
            AsyncLoopRow("for await in values of a signal that cannot fail") { signal, body, _ in
                for await value in signal.catch(to: Signal<Int, Never>.empty).values { body(value) }
            },
            AsyncLoopRow("an iterator's next() in a while loop") { signal, body, _ in
                var iterator = signal.values.makeAsyncIterator()
                while let value = try? await iterator.next() { body(value) }
            },
            AsyncLoopRow("for try await in values of map and deliver(on:)") { signal, body, _ in
                do { for try await value in signal.map({ $0 }).deliver(on: ThreadMatrix.queue).values { body(value) } } catch {}
            },
        ]
        for failure in AsyncLoopMatrix.failures(of: rows) {
            XCTFail(failure)
        }
    }
}
