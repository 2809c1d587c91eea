import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// A hostile review of `ObservableValue`'s bindings.
final class Review18BindingTests: LeakCheckedTestCase {
    /// Holds: many threads setting a bound cell; the follower ends on the source's last value, and
    /// sees the values in the order the source published them.
    func testBindToCell_followerEndsOnTheLastValueUnderRace() {
        for _ in 0..<20 {
            let source = ObservableValue(0)
            let follower = ObservableValue(-1)
            let binding = source.bind(to: follower)
            race(threads: 4) { thread in
                for step in 0..<100 { source.value = thread * 1_000 + step }
            }
            XCTAssertEqual(follower.value, source.value)
            binding.dispose()
        }
    }

    /// Holds: a chain a -> b -> c; letting b go mid-stream ends both bindings that involve it,
    /// and c keeps the last value it got.
    func testChain_middleCellLetGoMidStream() {
        let a = ObservableValue(1)
        var b: ObservableValue<Int>? = ObservableValue(0)
        let c = ObservableValue(0)
        let weakB = WeakReference(b!)
        let ab = a.bind(to: b!)
        let bc = b!.bind(to: c)
        a.value = 2
        XCTAssertEqual(c.value, 2)
        b = nil
        XCTAssertFalse(weakB.isAlive)
        XCTAssertTrue(ab.isDisposed)
        a.value = 3
        XCTAssertEqual(c.value, 2)
        bc.dispose()
    }

    /// Holds: `bind(from:)` of a cell's own signal, with disposal from inside the source's
    /// subscriber on another thread.
    func testBindFrom_disposedFromAnotherThreadMidStream() {
        let cell = ObservableValue(0)
        let (signal, input) = Signal<Int, Never>.pipe()
        let binding = cell.bind(from: signal)
        let seen = Recorder<Int>()
        let watch = cell.signal.subscribeNext { seen.record($0) }
        onAPlainThread {
            input.sendNext(1)
            binding.dispose()
            input.sendNext(2)
        }
        XCTAssertEqual(cell.value, 1)
        XCTAssertEqual(seen.values, [0, 1])
        watch.dispose()
    }

    /// Holds: the following cell let go of while other threads set the source; the binding ends
    /// and the cell goes, with nothing written after.
    func testBindToCell_followerLetGoWhileTheSourceChangesOnOtherThreads() {
        for _ in 0..<20 {
            let source = ObservableValue(0)
            let follower = Lock<ObservableValue<Int>?>(ObservableValue(-1))
            let weakFollower = WeakReference(follower.withLock { $0! })
            let binding = follower.withLock { source.bind(to: $0!) }
            race(threads: 4) { thread in
                if thread == 0 {
                    _ = follower.withLock { $0.take() }
                } else {
                    for step in 0..<100 { source.value = step }
                }
            }
            XCTAssertFalse(weakFollower.isAlive)
            source.value = 1_000
            XCTAssertTrue(binding.isDisposed)
        }
    }
}
