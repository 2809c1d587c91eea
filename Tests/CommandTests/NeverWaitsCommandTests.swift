@testable import Command
import Disposables
import Foundation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// Shape 2 of "disposal never waits", with a command: a `Command(enabled: form.signal.map { … })`
/// released on a serial queue while the main thread delivers a form change to a subscriber that
/// syncs onto that queue. The release (whose deinit disposes the enabled subscription) returns, so
/// the sync does; the enabled signal's map does not run for the change after the release returned;
/// and the command and its core are freed.
final class NeverWaitsCommandTests: LeakCheckedTestCase {
    /// Where the command lives until the queue lets go of it.
    private final class CommandBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Command<Void, Void, Never>?

        init(_ command: Command<Void, Void, Never>) {
            stored = command
        }

        /// Lets go of the command (its last reference: its deinit runs here).
        func release() {
            let command = lock.withLock { () -> Command<Void, Void, Never>? in
                defer { stored = nil }
                return stored
            }
            withExtendedLifetime(command) {}
        }
    }

    /// Shape 2: `Command(enabled: form.signal.map { … })` released on a serial queue while the
    /// main thread delivers a form change to a subscriber doing `queue.sync {}`.
    func testCommandReleasedOnASerialQueueWhileMainDeliversAFormChangeToASubscriberSyncingOntoIt_neverWaits() {
        let shape = "a Command(enabled: form.signal.map) released on a serial queue while main delivers a form change to a subscriber inside queue.sync"
        let watchdog = Watchdog(shape)
        defer { watchdog.cancel() }
        let queue = DispatchQueue(label: "command owner queue")
        let form = ObservableValue("")
        let subscriberEntered = Flag()
        let formSubscriber = form.signal.subscribe(next: { text in
            guard !text.isEmpty else { return }
            subscriberEntered.set()
            queue.sync {}
        })
        let released = Flag()
        let lateMaps = Counter()
        let ((box, parts), token) = trackingLifetime { token in
            let command = Command<Void, Void, Never>(enabled: form.signal.map { text in
                if released.isSet { lateMaps.increment() }
                withExtendedLifetime(token) {}
                return !text.isEmpty
            }) { .empty }
            return (CommandBox(command), (command: WeakReference(command), core: WeakReference(command.core)))
        }
        let releaseStarted = Flag()
        queue.async {
            releaseStarted.set()
            // The release comes while the main thread is inside the form's subscriber.
            guard pollWithoutRunningTheMainQueue({ subscriberEntered.isSet }) else { return }
            box.release()
            released.set()
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { releaseStarted.isSet })
        form.value = "a"
        XCTAssertTrue(released.isSet, "\(shape): the subscriber's queue.sync returned before the release")
        XCTAssertFalse(parts.command.isAlive, "\(shape): the command outlived its last reference")
        XCTAssertEqual(lateMaps.value, 0, "\(shape): the enabled signal's map ran after the command's release returned")
        XCTAssertTrue(spinMainRunLoop { !parts.core.isAlive }, "\(shape): the command's core is still alive")
        XCTAssertTrue(eventually { !token.isAlive }, "\(shape): the enabled signal's closure is still alive")
        formSubscriber.dispose()
    }
}
