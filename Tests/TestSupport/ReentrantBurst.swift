import Dispatch
import Disposables
import Foundation
import Signals
import XCTest

/// The sizes and limits of the reentrant-burst tests: a subscriber that sends ``size`` values into
/// its own source from inside one callback.
///
/// Linear time is checked without timing ratios: a burst of 100,000 takes well under a second in
/// an optimized build and a few seconds in a debug one, while a cost quadratic in the queued
/// sends would take minutes, so a test that completes within ``watchdogSeconds`` is linear.
public enum ReentrantBurst {
    /// How many values a callback sends into its own source: 100,000, or 10,000 under a sanitizer,
    /// which slows every access several times (ThreadSanitizer tenfold and more): a cost quadratic
    /// in the queued sends still takes far longer than ``watchdogSeconds`` at 10,000.
    public static var size: Int { BuildKind.isSanitized ? 10_000 : 100_000 }

    /// How long one burst test may take before its watchdog ends the run: far beyond a linear
    /// burst's few seconds in a debug build, far below a quadratic one's minutes.
    public static let watchdogSeconds: Double = 30

    /// The stack of the thread that runs a burst to show that it does not recurse per value: a
    /// few thousand nested deliveries would overflow it.
    public static let smallStack = BuildKind.smallStack(512 * 1024)
}

/// A source of a burst: `make(size)` subscribes a subscriber that, on its first value, sends
/// `size` more into the source from inside its callback; it returns the send of that first value
/// and what differs from the expected outcome once the burst has run.
public struct BurstSource {
    public let name: String
    public let make: (_ size: Int) -> (send0: @Sendable () -> Void, failures: () -> [String])

    public init(name: String, make: @escaping (_ size: Int) -> (send0: @Sendable () -> Void, failures: () -> [String])) {
        self.name = name
        self.make = make
    }

    /// Identity overall, through three operators, each with a sink of its own.
    public static func throughOperators(_ signal: Signal<Int, Never>) -> Signal<Int, Never> {
        signal.map { $0 * 3 }.filter { $0 % 3 == 0 }.map { $0 / 3 }
    }
}

/// Runs the burst of each of `sources` of ``ReentrantBurst/size`` values, sending its first value
/// from `thread`, each under a watchdog; a failure of any fails the calling test.
public func runBursts(_ sources: [BurstSource], from thread: BurstThread, file: StaticString = #filePath, line: UInt = #line) {
    let size = ReentrantBurst.size
    for source in sources {
        let shape = "\(size) reentrant sends into \(source.name), from \(thread.rawValue)"
        let failures = withWatchdog(seconds: ReentrantBurst.watchdogSeconds, shape) {
            let (send0, failures) = source.make(size)
            thread.run(send0)
            return failures()
        }
        for failure in failures { XCTFail("\(shape): \(failure)", file: file, line: line) }
    }
}

/// Where a burst's first value is sent from, and so which thread delivers the burst.
public enum BurstThread: String, CaseIterable, Sendable {
    /// The test's own thread, the main thread.
    case main = "the main thread"
    /// A plain thread with a stack of ``ReentrantBurst/smallStack`` bytes.
    case smallStack = "a thread with a 512 KiB stack"
    /// A block on a global dispatch queue.
    case globalQueue = "a global queue"

    /// Runs `body` there and returns once it has returned.
    public func run(_ body: @escaping @Sendable () -> Void) {
        switch self {
        case .main:
            body()
        case .smallStack:
            onAPlainThread(stackSize: ReentrantBurst.smallStack, body)
        case .globalQueue:
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                body()
                done.signal()
            }
            done.wait()
        }
    }
}

/// What one subscriber of a burst received: its values, in order, and its terminal events. Its
/// callbacks never overlap, but may run on several threads one after the other.
public final class BurstTally: Sendable {
    private let state = Lock<(values: [Int], completions: Int, errors: Int)>(([], 0, 0))

    public init() {}

    public var values: [Int] { state.withLock { $0.values } }
    public var completions: Int { state.withLock { $0.completions } }
    public var errors: Int { state.withLock { $0.errors } }

    public func record(_ value: Int) {
        state.withLock { $0.values.append(value) }
    }

    public func complete() {
        state.withLock { $0.completions += 1 }
    }

    public func fail() {
        state.withLock { $0.errors += 1 }
    }

    /// What differs from receiving exactly `expected`, in order, and then `completions`
    /// completions and no error: empty when nothing does. Waits for the completions first (up to
    /// 10 s): an operator subscribed off the main thread (`Signal.return` in `flattenMap`) may
    /// deliver on a background scheduler.
    public func failures(_ who: String, expecting expected: [Int], completions: Int = 1) -> [String] {
        eventually { self.completions >= completions }
        let (values, completed, failed) = state.withLock { ($0.values, $0.completions, $0.errors) }
        var failures: [String] = []
        if let mismatch = firstDifference(values, expected) {
            failures.append("\(who): \(mismatch)")
        }
        if completed != completions { failures.append("\(who): \(completed) completions, expected \(completions)") }
        if failed != 0 { failures.append("\(who): \(failed) errors, expected none") }
        return failures
    }
}

/// Where `values` first differs from `expected`, described without printing either whole array,
/// or `nil` when they are equal.
public func firstDifference(_ values: [Int], _ expected: [Int]) -> String? {
    if values == expected { return nil }
    let index = zip(values, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(values.count, expected.count)
    let got = index < values.count ? "\(values[index])" : "nothing"
    let wanted = index < expected.count ? "\(expected[index])" : "nothing"
    return "received \(values.count) values, expected \(expected.count); at index \(index) got \(got), expected \(wanted)"
}

/// A place for a create block to leave its subscriber, for the callbacks and other threads.
public final class SubscriberSlot<Value, Failure: Error>: @unchecked Sendable {
    private let stored = Lock<Subscriber<Value, Failure>?>(nil)

    public init() {}

    public var subscriber: Subscriber<Value, Failure>? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
