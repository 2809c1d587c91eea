@testable import Command
import Dispatch
import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import Synchronization
import TestSupport
import XCTest

// What the review tests share.

typealias TestCommand = Command<Int, Int, TestError>

/// Holds a command for callbacks to let go of, without capturing the command itself.
final class Holder<C: AnyObject & Sendable>: Sendable {
    private let stored: Lock<C?>

    init(_ object: C?) {
        stored = Lock(object)
    }

    var object: C? {
        stored.withLock { $0 }
    }

    /// Sets the object, before any callback can run.
    func withCommand(_ object: C) {
        stored.withLock { $0 = object }
    }

    /// Lets go of the object, outside the lock (its deinit runs here, in the caller).
    func release() {
        let object = stored.withLock { $0.take() }
        withExtendedLifetime(object) {}
    }
}

/// Whether the caller runs on the main thread with the main scheduler current.
func onMain() -> Bool {
    Thread.isMainThread && Scheduler.current === Scheduler.main
}

/// A signal that sends `input`, then fails with `.first`, synchronously.
func failing(_ input: Int) -> Signal<Int, TestError> {
    Signal { subscriber in
        subscriber.sendNext(input)
        subscriber.sendError(.first)
        return nil
    }
}
