import Foundation
import Signals
import XCTest

/// The base of every test case in the suite: each test is also a leak test.
///
/// It reads ``SignalDiagnostics/liveSubscriptionCount`` before the test and, after the test and
/// its tear-down, waits (running the main run loop, for main-queue hops) until the count is back
/// where it started, up to ``leakCheckTimeout`` seconds; a count still higher then fails the test
/// with the number of subscriptions it left alive.
///
/// A test that keeps subscriptions alive on purpose (a shared fixture, a deliberate cycle) says
/// so with ``allowLiveSubscriptions(_:because:)``.
open class LeakCheckedTestCase: XCTestCase {
    /// How long a test's asynchronous leftovers (background subscriptions, main-queue hops) may
    /// take to end after the test returns.
    public static let leakCheckTimeout: TimeInterval = defaultWaitSeconds

    private var allowedLeaks = 0

    /// Lets this test end with up to `count` more live subscriptions than it started with;
    /// `reason` says why, for the reader.
    public func allowLiveSubscriptions(_ count: Int, because reason: String) {
        allowedLeaks += count
    }

    open override func invokeTest() {
        let before = SignalDiagnostics.liveSubscriptionCount
        allowedLeaks = 0
        super.invokeTest()
        if let leak = LiveSubscriptions.leak(since: before, allowing: allowedLeaks, by: name) {
            XCTFail(leak)
        }
    }
}

/// The check behind ``LeakCheckedTestCase`` and each row of the thread matrices.
public enum LiveSubscriptions {
    /// Waits up to ``LeakCheckedTestCase/leakCheckTimeout`` seconds (running the main run loop
    /// when called on the main thread) for ``SignalDiagnostics/liveSubscriptionCount`` to come
    /// back to `before` plus `allowed`; returns `nil` when it does, else a failure naming `what`.
    public static func leak(since before: Int, allowing allowed: Int = 0, by what: String) -> String? {
        let limit = before + allowed
        let backInTime = eventually(timeout: LeakCheckedTestCase.leakCheckTimeout) {
            SignalDiagnostics.liveSubscriptionCount <= limit
        }
        if backInTime { return nil }
        let after = SignalDiagnostics.liveSubscriptionCount
        return "\(what) left \(after - limit) subscription(s) alive: the live subscription count was \(before) before and is \(after) \(LeakCheckedTestCase.leakCheckTimeout) s after"
            + (allowed > 0 ? " (\(allowed) allowed)" : "")
            // Run with REACTIVECOCOA_TRACK_SUBSCRIPTIONS=1 to have them listed here.
            + (SignalDiagnostics.isTrackingSubscriptions ? "\n" + SignalDiagnostics.report() : "")
    }
}
