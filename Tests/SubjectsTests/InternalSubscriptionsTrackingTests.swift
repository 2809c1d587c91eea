import Signals
import Subjects
import TestSupport
import XCTest

/// The live-subscription listing (`SignalDiagnostics.isTrackingSubscriptions`) shows the user's
/// subscriptions only: those the library's own code makes (`share()` to its source and subject,
/// `autoconnect()`'s connection, `Property(initial:then:)`'s) are not listed, so a leak hunt does
/// not chase the library's files.
final class InternalSubscriptionsTrackingTests: XCTestCase {
    override func setUp() {
        super.setUp()
        SignalDiagnostics.isTrackingSubscriptions = true
    }

    override func tearDown() {
        SignalDiagnostics.isTrackingSubscriptions = false
        super.tearDown()
    }

    private var listedHere: [SignalDiagnostics.LiveSubscription] {
        SignalDiagnostics.liveSubscriptions.filter { $0.file == "\(#fileID)" }
    }

    private var listedInTheLibrary: [SignalDiagnostics.LiveSubscription] {
        SignalDiagnostics.liveSubscriptions.filter { entry in
            ["Signals/", "Subjects/", "Command/", "Sequences/"].contains { entry.file.hasPrefix($0) }
        }
    }

    func testShare_listsOnlyTheUsersSubscription() {
        // Kept: a shared signal let go of, with a source that keeps nothing, ends its subscriptions.
        let shared = Signal<Int, Never>.never.share(replay: 1)
        let line = #line + 1
        let subscription = shared.subscribe(next: { _ in })
        XCTAssertEqual(listedHere.map(\.line), [UInt(line)], SignalDiagnostics.report())
        XCTAssertEqual(listedInTheLibrary.map(\.description), [])
        subscription.dispose()
        XCTAssertEqual(listedHere.count, 0)
        withExtendedLifetime(shared) {}
    }

    func testAutoconnect_listsOnlyTheUsersSubscription() {
        let connected = Signal<Int, Never>.never.publish().autoconnect()
        let subscription = connected.subscribe(next: { _ in })
        XCTAssertEqual(listedHere.count, 1)
        XCTAssertEqual(listedInTheLibrary.map(\.description), [])
        subscription.dispose()
        XCTAssertEqual(listedHere.count, 0)
        XCTAssertEqual(listedInTheLibrary.map(\.description), [])
        withExtendedLifetime(connected) {}
    }

    func testPropertyFollowingASignal_listsNothingOfItsOwn() {
        let (changes, input) = Signal<Int, Never>.pipe()
        let property = Property(initial: 0, then: changes)
        XCTAssertEqual(listedInTheLibrary.map(\.description), [])
        withExtendedLifetime((property, input)) {}
    }
}
