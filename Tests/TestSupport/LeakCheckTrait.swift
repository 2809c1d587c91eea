import Foundation
import Signals
import Testing

/// The Swift Testing form of ``LeakCheckedTestCase``: a trait that makes each test it applies to
/// a leak test. It reads ``SignalDiagnostics/liveSubscriptionCount`` before the test and records an
/// issue when the count is not back there within ``LeakCheckedTestCase/leakCheckTimeout`` seconds
/// after it.
///
/// The count covers the whole process, so a suite that checks it must not run its tests in
/// parallel with each other: mark it `.serialized` as well.
///
/// ```swift
/// @Suite(.serialized, .checksLiveSubscriptions)
/// struct SearchTests { … }
/// ```
public struct LiveSubscriptionCheck: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite it is given to.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let before = SignalDiagnostics.liveSubscriptionCount
        try await function()
        let deadline = Date(timeIntervalSinceNow: LeakCheckedTestCase.leakCheckTimeout)
        while SignalDiagnostics.liveSubscriptionCount > before, Date() < deadline {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        let after = SignalDiagnostics.liveSubscriptionCount
        if after > before {
            Issue.record("\(test.name) left \(after - before) subscription(s) alive: the live subscription count was \(before) before the test and is \(after) after it")
        }
    }
}

extension Trait where Self == LiveSubscriptionCheck {
    /// Makes each test a leak test; see ``LiveSubscriptionCheck``.
    public static var checksLiveSubscriptions: Self { LiveSubscriptionCheck() }
}
