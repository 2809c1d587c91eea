import Disposables
import Foundation
import Signals
import TestSupport
import XCTest

/// Shape 3 of "disposal never waits", over pipes: a dispose made inside a callback on the main
/// thread (a "Cancel" tap) while the disposed subscription's source is being delivered on a
/// worker thread whose progress callback does `DispatchQueue.main.sync {}`. The tap's send must
/// return, and no callback of the disposed subscription starts once its dispose has returned.
final class PipeDisposeInsideACallbackTests: LeakCheckedTestCase {
    private func check(_ disposing: DisposedSubscription, file: StaticString = #filePath, line: UInt = #line) {
        let (taps, tapsInput) = Signal<Void, Never>.pipe()
        let (progress, progressInput) = Signal<Int, Never>.pipe()
        let failures = disposalInsideACallbackWhileAnotherThreadDelivers(
            "a pipe's tap callback on the main thread disposes \(disposing.rawValue) of a progress pipe, the worker inside DispatchQueue.main.sync",
            taps: taps, sendTap: { tapsInput.sendNext(()) },
            progress: progress, sendProgress: { progressInput.sendNext($0) },
            disposing: disposing, file: file, line: line
        )
        for failure in failures { XCTFail(failure, file: file, line: line) }
    }

    /// Shape 3: a pipe's "Cancel tap" callback on the main thread disposes the download's
    /// subscription to a progress pipe, whose worker thread is inside the download's progress
    /// callback doing `DispatchQueue.main.sync {}`; the tap's `sendNext` returns.
    func testTapCallbackDisposesTheDownloadWhoseWorkerSyncsOntoMain_tapSendReturns() {
        check(.theOneOnTheWorker)
    }

    /// Shape 3: a pipe's "Cancel tap" callback on the main thread disposes another subscription of
    /// the progress pipe, one the worker will reach after the download's callback, which is inside
    /// `DispatchQueue.main.sync {}`; the tap's `sendNext` returns and the sibling gets nothing more.
    func testTapCallbackDisposesASiblingOfTheSubscriptionTheWorkerIsIn_tapSendReturns() {
        check(.aSiblingOfIt)
    }
}
