import Schedulers
import Sequences
import Signals
import TestSupport
import XCTest

/// The Sequences module's rows of the thread-context matrix: the list-to-signal bridges
/// subscribed from every thread context, over both sources, disposed from another thread, inside
/// their own callback, and let go of (see `ThreadMatrix` for what each round checks).
///
/// Rows that do not read the matrix's source send the same thing whatever it is. The row that reads
/// it through `lazyList` takes three values first (a list of the never-ending hot source would
/// wait for a fourth value forever), and walks the list on a background scheduler: walked on the
/// subscribing thread, it would wait there for the values the context sends once `subscribe`
/// has returned, as `head` is documented to.
final class ThreadMatrixTests: LeakCheckedTestCase {
    func testListSignals() {
        let done: [Event<Int, Never>] = [.next(1), .next(2), .next(3), .completed]
        assertMatrix([
            row("LazyList.signal(on: .immediate)", { _ in LazyList([1, 2, 3]).signal(on: .immediate) }, sync: done, hot: done),
            row("LazyList.signal()", { _ in LazyList([1, 2, 3]).signal() }, sync: done, hot: done),
            row("LazyList.signal(on: background), an iterator's list", { _ in
                LazyList(iterator: [1, 2, 3].makeIterator()).signal(on: Scheduler.background())
            }, sync: done, hot: done),
            row("LazyList.map.filter.signal(on: .immediate)", { _ in
                LazyList(0...).map { $0 + 1 }.filter { $0 <= 3 }.take(3).signal(on: .immediate)
            }, sync: done, hot: done),
            row("Signal.take(3).lazyList.signal()", { source in source.take(3).lazyList.signal() }, sync: done, hot: done),
        ])
    }

    /// The signals of eager lists (evaluated when made: sent from evaluated nodes) and of lists
    /// that folds build. `ThreadMatrix.lightRounds` per cell in modes (a)-(c): their delivery is
    /// the rows' above.
    func testSignalsOfEagerAndFoldedLists() {
        let done: [Event<Int, Never>] = [.next(1), .next(2), .next(3), .completed]
        assertMatrix([
            row("LazyList.eagerSequence.signal(on: .immediate)", { _ in LazyList([1, 2, 3]).eagerSequence.signal(on: .immediate) }, sync: done, hot: done),
            row("LazyList.eagerSequence.map.signal()", { _ in LazyList([0, 1, 2]).eagerSequence.map { $0 + 1 }.signal() }, sync: done, hot: done),
            row("a list that foldLeft concatenates, signal(on: .immediate)", { _ in
                LazyList([1, 2, 3]).foldLeft(LazyList<Int>.empty) { list, value in list.concat(.return(value)) }.signal(on: .immediate)
            }, sync: done, hot: done),
            row("a list that foldRight builds lazily, signal()", { _ in
                LazyList([1, 2, 3]).foldRight(LazyList<Int>.empty) { value, rest in LazyList(head: { value }, tail: { rest.head! }) }.signal()
            }, sync: done, hot: done),
            row("a list that foldRight builds from an eager list, signal(on: background)", { _ in
                LazyList([1, 2, 3]).eagerSequence.foldRight(LazyList<Int>.empty) { value, rest in LazyList(head: { value }, tail: { rest.head! }) }
                    .signal(on: Scheduler.background())
            }, sync: done, hot: done),
        ].map { $0.inRounds(ThreadMatrix.lightRounds) })
    }

    func assertMatrix(_ rows: [MatrixRow], file: StaticString = #filePath, line: UInt = #line) {
        for failure in ThreadMatrix.failures(of: rows) {
            XCTFail(failure, file: file, line: line)
        }
    }
}
