import Disposables
import Foundation
import Signals
import Subjects
import TestSupport
import XCTest

/// Shape 3 of "disposal never waits", with subjects: a `Subject`'s callback on the main thread (a
/// "Cancel" tap) disposes a "download" subscription whose worker thread is inside a progress
/// callback doing `DispatchQueue.main.sync {}`. `taps.sendNext(())` must return, and no callback
/// of the disposed subscription starts once its dispose has returned.
final class SubjectDisposeInsideACallbackTests: LeakCheckedTestCase {
    private enum Progress: String {
        case subject = "a progress Subject"
        case pipe = "a progress pipe"
    }

    private func check(_ progress: Progress, _ disposing: DisposedSubscription, file: StaticString = #filePath, line: UInt = #line) {
        let taps = Subject<Void, Never>()
        let signal: Signal<Int, Never>
        let send: @Sendable (Int) -> Void
        switch progress {
        case .subject:
            let subject = Subject<Int, Never>()
            (signal, send) = (subject, { subject.sendNext($0) })
        case .pipe:
            let (pipe, input) = Signal<Int, Never>.pipe()
            (signal, send) = (pipe, { input.sendNext($0) })
        }
        let failures = disposalInsideACallbackWhileAnotherThreadDelivers(
            "a Subject's tap callback on the main thread disposes \(disposing.rawValue) of \(progress.rawValue), the worker inside DispatchQueue.main.sync",
            taps: taps, sendTap: { taps.sendNext(()) },
            progress: signal, sendProgress: send,
            disposing: disposing, file: file, line: line
        )
        for failure in failures { XCTFail(failure, file: file, line: line) }
    }

    /// Shape 3: a `Subject`'s "Cancel tap" callback on the main thread disposes the download's
    /// subscription to a progress `Subject`, whose worker is inside the progress callback doing
    /// `DispatchQueue.main.sync {}`; `taps.sendNext(())` returns.
    func testSubjectTapDisposesTheDownloadOfAProgressSubjectWhoseWorkerSyncsOntoMain_tapSendReturns() {
        check(.subject, .theOneOnTheWorker)
    }

    /// Shape 3: as above, the tap disposing another subscription of the progress `Subject`, which
    /// the worker reaches after the download's callback.
    func testSubjectTapDisposesASiblingOfTheSubscriptionTheWorkerIsIn_progressSubject_tapSendReturns() {
        check(.subject, .aSiblingOfIt)
    }

    /// Shape 3: a `Subject`'s "Cancel tap" disposes the download's subscription to a progress
    /// pipe, whose worker is inside the progress callback doing `DispatchQueue.main.sync {}`.
    func testSubjectTapDisposesTheDownloadOfAProgressPipeWhoseWorkerSyncsOntoMain_tapSendReturns() {
        check(.pipe, .theOneOnTheWorker)
    }

    /// Shape 3: as above, the tap disposing another subscription of the progress pipe.
    func testSubjectTapDisposesASiblingOfTheSubscriptionTheWorkerIsIn_progressPipe_tapSendReturns() {
        check(.pipe, .aSiblingOfIt)
    }
}
