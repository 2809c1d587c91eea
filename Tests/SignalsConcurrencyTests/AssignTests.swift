import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// An object safe to write from any thread, whose `value` setter records every write.
final class AssignTarget: Sendable {
    private let writes = Lock<[Int]>([])
    private let threads = Lock<[Bool]>([])

    /// The last value written; each write is recorded.
    var value: Int {
        get { writes.withLock { $0.last ?? 0 } }
        set {
            writes.withLock { $0.append(newValue) }
            threads.withLock { $0.append(Thread.isMainThread) }
        }
    }

    var written: [Int] { writes.withLock { $0 } }
    var writtenOnTheMainThread: [Bool] { threads.withLock { $0 } }
}

/// A main-actor object whose `text` setter records every write, and checks it is on the main actor.
@MainActor final class Label {
    var history: [String] = []
    var text = "" {
        didSet {
            MainActor.preconditionIsolated()
            history.append(text)
        }
    }
}

final class AssignTests: LeakCheckedTestCase {
    func testAssign_writesEachValue() {
        let target = AssignTarget()
        let binding = sending([1, 2, 3], failing: Never.self).assign(to: \.value, on: target)
        XCTAssertEqual(target.written, [1, 2, 3])
        // Completion ends the binding.
        XCTAssertTrue(binding.isDisposed)
    }

    func testAssign_writesOnTheDeliveringThread() {
        let source = NeverPipe<Int>()
        let target = AssignTarget()
        let binding = source.signal.assign(to: \.value, on: target)
        source.input.sendNext(1)
        onAPlainThread { source.input.sendNext(2) }
        XCTAssertEqual(target.written, [1, 2])
        XCTAssertEqual(target.writtenOnTheMainThread, [true, false])
        binding.dispose()
    }

    func testAssign_endsAtTheNextValueOnceTheObjectHasGone() {
        let source = NeverPipe<Int>()
        var target: AssignTarget? = AssignTarget()
        let weakTarget = WeakReference(target!)
        let binding = source.signal.assign(to: \.value, on: target!)
        source.input.sendNext(1)
        XCTAssertEqual(target?.written, [1])
        target = nil
        // Held weakly: nothing keeps it.
        XCTAssertFalse(weakTarget.isAlive)
        XCTAssertFalse(binding.isDisposed)
        source.input.sendNext(2)
        XCTAssertTrue(binding.isDisposed)
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testAssign_disposalEndsIt() {
        let source = NeverPipe<Int>()
        let target = AssignTarget()
        let binding = source.signal.assign(to: \.value, on: target)
        source.input.sendNext(1)
        binding.dispose()
        source.input.sendNext(2)
        XCTAssertEqual(target.written, [1])
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testAssign_completionEndsItAndLetsGo() {
        let source = NeverPipe<Int>()
        let target = AssignTarget()
        let binding = source.signal.assign(to: \.value, on: target)
        source.input.sendNext(1)
        source.input.sendCompleted()
        XCTAssertTrue(binding.isDisposed)
        XCTAssertEqual(source.disposals.value, 1)
        XCTAssertEqual(target.written, [1])
    }

    func testAssign_fromSeveralThreads() {
        let source = NeverPipe<Int>()
        let target = AssignTarget()
        let binding = source.signal.assign(to: \.value, on: target)
        race(threads: 8) { thread in
            for value in 0..<100 { source.input.sendNext(thread * 100 + value) }
        }
        XCTAssertEqual(target.written.count, 800)
        XCTAssertEqual(Set(target.written).count, 800)
        binding.dispose()
    }

    func testAssign_subscribedFromAPlainThreadEndsWhenTheObjectGoesThere() {
        let source = NeverPipe<Int>()
        let binding = DisposableBox()
        let weakTarget = Lock<WeakReference<AssignTarget>?>(nil)
        onAPlainThread {
            let target = AssignTarget()
            weakTarget.withLock { $0 = WeakReference(target) }
            binding.disposable = source.signal.assign(to: \.value, on: target)
            // With no scheduler current, the subscription is made on the subscription scheduler.
            XCTAssertTrue(eventually { source.subscriptions.value == 1 })
            source.input.sendNext(1)
            XCTAssertEqual(target.written, [1])
        }
        XCTAssertEqual(weakTarget.withLock { $0?.isAlive }, false)
        onAPlainThread { source.input.sendNext(2) }
        XCTAssertEqual(binding.disposable?.isDisposed, true)
        XCTAssertEqual(source.disposals.value, 1)
    }

    // MARK: assignOnMainActor

    func testAssignOnMainActor_writesOnTheMainActorInOrder() {
        let source = NeverPipe<String>()
        let label = MainActor.assumeIsolated { Label() }
        let binding = MainActor.assumeIsolated { source.signal.assignOnMainActor(to: \.text, on: label) }
        onAPlainThread { for title in ["a", "b", "c"] { source.input.sendNext(title) } }
        XCTAssertTrue(spinMainRunLoop { MainActor.assumeIsolated { label.history.count } == 3 })
        XCTAssertEqual(MainActor.assumeIsolated { label.history }, ["a", "b", "c"])
        binding.dispose()
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testAssignOnMainActor_endsAtTheNextValueOnceTheObjectHasGone() {
        let source = NeverPipe<String>()
        var model: ViewModel? = MainActor.assumeIsolated { ViewModel() }
        let weakModel = WeakReference(model!)
        let binding = MainActor.assumeIsolated { model!.bindTitle(source.signal) }
        source.input.sendNext("a")
        XCTAssertEqual(MainActor.assumeIsolated { model?.title }, "a")
        model = nil
        XCTAssertFalse(weakModel.isAlive)
        onAPlainThread { source.input.sendNext("b") }
        XCTAssertTrue(spinMainRunLoop { binding.isDisposed })
        XCTAssertEqual(source.disposals.value, 1)
    }

    func testAssignOnMainActor_disposalEndsIt() {
        let source = NeverPipe<String>()
        let model = MainActor.assumeIsolated { ViewModel() }
        let binding = MainActor.assumeIsolated { model.bindTitle(source.signal) }
        onAPlainThread { source.input.sendNext("late") }
        binding.dispose()
        drainMainQueue()
        XCTAssertEqual(MainActor.assumeIsolated { model.title }, "")
        XCTAssertEqual(source.disposals.value, 1)
    }
}
