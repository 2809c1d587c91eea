import Disposables
import TestSupport
import XCTest

final class DisposableTests: LeakCheckedTestCase {
    func testDispose_runsActionOnceAndMarksDisposed() {
        let runs = Counter()
        let disposable = Disposable { runs.increment() }
        XCTAssertFalse(disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
        XCTAssertEqual(runs.value, 1)
    }

    func testDispose_withoutActionOnlyMarks() {
        let disposable = Disposable()
        disposable.dispose()
        XCTAssertTrue(disposable.isDisposed)
    }

    func testDispose_racingOnEightThreadsRunsActionOnce() {
        for _ in 0..<50 {
            let runs = Counter()
            let disposable = Disposable { runs.increment() }
            race(threads: 8) { _ in disposable.dispose() }
            XCTAssertEqual(runs.value, 1)
            XCTAssertTrue(disposable.isDisposed)
        }
    }

    func testDispose_releasesTheActionAndItsCaptures() {
        let (disposable, token) = trackingLifetime { token in Disposable { _ = token } }
        XCTAssertTrue(token.isAlive)
        disposable.dispose()
        XCTAssertFalse(token.isAlive)
    }

    func testDispose_actionMayDisposeItself() {
        let runs = Counter()
        let box = DisposableBox()
        box.disposable = Disposable {
            runs.increment()
            box.disposable?.dispose()
        }
        box.disposable?.dispose()
        XCTAssertEqual(runs.value, 1)
    }

    func testAsScoped_disposesWhenReleased() {
        let runs = Counter()
        let inner = Disposable { runs.increment() }
        do {
            let scoped = inner.asScoped()
            XCTAssertFalse(scoped.isDisposed)
        }
        XCTAssertEqual(runs.value, 1)
        XCTAssertTrue(inner.isDisposed)
    }

    func testScopedDisposable_disposeBeforeReleaseDisposesOnce() {
        let runs = Counter()
        do {
            let scoped = ScopedDisposable(Disposable { runs.increment() })
            scoped.dispose()
            XCTAssertTrue(scoped.isDisposed)
        }
        XCTAssertEqual(runs.value, 1)
    }

    func testScopedDisposable_releasesItself() {
        weak var weakScoped: ScopedDisposable?
        do {
            let scoped = ScopedDisposable(Disposable())
            weakScoped = scoped
        }
        XCTAssertNil(weakScoped)
    }
}
