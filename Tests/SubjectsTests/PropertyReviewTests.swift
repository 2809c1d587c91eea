import Disposables
import Foundation
import Observation
import Signals
import Subjects
import TestSupport
import XCTest

/// A hostile review of `Property` and of `ObservableValue`'s Observation support: deep chains,
/// other threads, racing writes while subscribers join, memory, and Observation for derived
/// properties.
final class PropertyReviewTests: LeakCheckedTestCase {
    // MARK: Depth

    func testMap_deep_readsSubscribesWritesAndLetsGo_onAPlainThread() {
        // Documented on `Property`: a read of a mapped property computes through each map, nested.
        // A release build holds 10,000 on a thread's 8 MB stack, a debug build 5,000 (a
        // subscription may use three eighths of it); AddressSanitizer's larger frames overflow it.
        let depth = BuildKind.isSanitized ? 1_000 : BuildKind.isDebug ? 5_000 : 10_000
        let received = Recorder<Int>()
        let cellReference = Lock<WeakReference<ObservableValue<Int>>?>(nil)
        onAPlainThread {
            let cell = ObservableValue(0)
            cellReference.withLock { $0 = WeakReference(cell) }
            var property = Property(cell)
            for _ in 0..<depth { property = property.map { $0 + 1 } }
            XCTAssertEqual(property.value, depth)
            let subscription = property.signal.subscribeNext { received.record($0) }
            cell.value = 1
            subscription.dispose()
        }
        XCTAssertEqual(received.values, [depth, depth + 1])
        XCTAssertEqual(cellReference.withLock { $0?.isAlive }, false)
    }

    func testInitialThen_followingEachOtherDeep_aWriteReachesTheLast_onAPlainThread() {
        // Documented on `Property`: a write reaches the last of a chain of following properties
        // nested, one delivery per property. A release build holds 10,000 on a thread's 8 MB stack;
        // a debug build's larger frames overflow it between 1,000 and 3,000 deep.
        let depth = BuildKind.isDebug || BuildKind.isSanitized ? 300 : 10_000
        let last = Lock<Int?>(nil)
        onAPlainThread {
            let cell = ObservableValue(0)
            var properties = [Property(cell)]
            for _ in 0..<depth { properties.append(Property(initial: -1, then: properties.last!.signal)) }
            XCTAssertEqual(properties.last!.value, 0)
            cell.value = 1
            last.withLock { $0 = properties.last!.value }
            // Let go from the first: each one's signal completes as it goes.
            while !properties.isEmpty { properties.removeFirst() }
        }
        XCTAssertEqual(last.withLock { $0 }, 1)
    }

    func testZip_deep_aWriteReachesTheLast_andLettingGoOfTheLastReleasesAll_onAPlainThread() {
        // Documented on `Property`: letting go of the last of a chain of derived properties
        // releases the rest nested. A release build holds 10,000 on a thread's 8 MB stack; a debug
        // build's larger frames overflow it releasing 10,000.
        let depth = BuildKind.isDebug || BuildKind.isSanitized ? 1_000 : 10_000
        let last = Lock<Int?>(nil)
        let cellReference = Lock<WeakReference<ObservableValue<Int>>?>(nil)
        onAPlainThread {
            let cell = ObservableValue(0)
            cellReference.withLock { $0 = WeakReference(cell) }
            let partner = ObservableValue(0)
            var property = Property(cell)
            for _ in 0..<depth { property = property.zip(with: Property(partner)).map(\.0) }
            cell.value = 1
            partner.value = 1
            last.withLock { $0 = property.value }
        }
        XCTAssertEqual(last.withLock { $0 }, 1)
        XCTAssertEqual(cellReference.withLock { $0?.isAlive }, false)
    }

    // MARK: Threads

    func testInitialThen_followingASignalFromAnotherThread_whileSubscribersJoin_endsOnTheLastValue() {
        let rounds = BuildKind.raceRounds(optimized: 200, debug: 50, sanitized: 20)
        for _ in 0..<rounds {
            let (source, input) = Signal<Int, Never>.pipe()
            let property = Property(initial: -1, then: source)
            let sender = startThread("sends") {
                for value in 0..<200 { input.sendNext(value) }
            }
            var lasts: [Recorder<Int>] = []
            var subscriptions: [Disposable] = []
            for _ in 0..<20 {
                let last = Recorder<Int>()
                lasts.append(last)
                subscriptions.append(property.signal.subscribeNext { last.record($0) })
            }
            XCTAssertTrue(eventually { sender.isSet })
            XCTAssertEqual(property.value, 199)
            for last in lasts { XCTAssertEqual(last.values.last, 199) }
            subscriptions.forEach { $0.dispose() }
        }
    }

    func testAZippedPropertyLetGoOfWhileItsSignalHasSubscribers_completesThem_andReleasesTheSources() {
        let events = Recorder<String>()
        let cell = ObservableValue(1)
        let other = ObservableValue("a")
        var zipped: Property<(Int, String)>? = Property(cell).zip(with: Property(other))
        let reference = WeakReference(zipped!)
        _ = zipped!.signal.subscribe(next: { events.record("\($0.0)\($0.1)") }, completed: { events.record("completed") })
        cell.value = 2
        other.value = "b"
        zipped = nil
        XCTAssertNil(zipped)
        cell.value = 3
        other.value = "c"
        XCTAssertEqual(events.values, ["1a", "2b", "completed"])
        XCTAssertFalse(reference.isAlive)
    }

    // MARK: Blocking callbacks

    func testASubscriberWaitingForAThreadThatWritesTheCell_doesNotHang_andGetsTheWriteAfter() {
        withWatchdog("property signal: callback waits for a thread that writes the cell") {
            let cell = ObservableValue(0)
            let derived: [Property<Int>] = [
                Property(cell), Property(cell).map { $0 }, Property(initial: -1, then: cell.signal),
            ]
            for (index, property) in derived.enumerated() {
                cell.value = index * 10
                let received = Recorder<Int>()
                let subscription = property.signal.subscribeNext { value in
                    received.record(value)
                    guard value == index * 10 else { return }
                    let written = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        cell.value = value + 1
                        written.signal()
                    }
                    XCTAssertTrue(written.waitForSignal(), "the write waited for the callback")
                }
                XCTAssertTrue(eventually { received.values == [index * 10, index * 10 + 1] }, "property \(index): \(received.values)")
                subscription.dispose()
            }
        }
    }

    func testASubscriberWaitingForAThreadThatDisposesIt_doesNotHang_forAFollowingProperty() {
        withWatchdog("following property: callback waits for a thread that disposes") {
            let (source, input) = Signal<Int, Never>.pipe()
            let property = Property(initial: 0, then: source)
            let subscription = SerialDisposable()
            let received = Recorder<Int>()
            subscription.disposable = property.signal.subscribeNext { value in
                received.record(value)
                guard value == 1 else { return }
                let disposed = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    subscription.dispose()
                    disposed.signal()
                }
                XCTAssertTrue(disposed.waitForSignal(), "dispose() waited for the callback")
            }
            input.sendNext(1)
            input.sendNext(2)
            XCTAssertEqual(received.values, [0, 1])
            XCTAssertEqual(property.value, 2)
        }
    }

    func testAFollowingPropertysSubscriberWaitingForAThreadThatLetsGoOfTheProperty_doesNotHang() {
        withWatchdog("following property: callback waits for a thread that releases the property") {
            let (source, input) = Signal<Int, Never>.pipe()
            let holder = Lock<Property<Int>?>(Property(initial: 0, then: source))
            let signal = holder.withLock { $0!.signal }
            let events = Recorder<String>()
            _ = signal.subscribe(
                next: { value in
                    events.record("next \(value)")
                    guard value == 1 else { return }
                    let released = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        // Released inside the lock's closure, so before the semaphore is signalled.
                        holder.withLock { $0 = nil }
                        released.signal()
                    }
                    XCTAssertTrue(released.waitForSignal(), "letting go of the property waited for the callback")
                },
                completed: { events.record("completed") }
            )
            input.sendNext(1)
            input.sendNext(2)
            XCTAssertTrue(eventually { events.values == ["next 0", "next 1", "completed"] }, "\(events.values)")
        }
    }

    func testAFollowingPropertysNewSubscriberWaitingInItsFirstValueForAThreadThatLetsGoOfTheProperty_doesNotHang() {
        let (source, _) = Signal<Int, Never>.pipe()
        let holder = Lock<Property<Int>?>(Property(initial: 0, then: source))
        assertLettingGoInTheFirstValueFromAnotherThread_doesNotWait(
            "following property: first-value callback waits for a thread that releases the property",
            of: holder.withLock { $0!.signal },
            letGo: { holder.withLock { $0 = nil } }
        )
    }

    func testAChannelSubscriberWaitingInItsFirstValueForAThreadThatLetsGoOfTheCell_doesNotHang() {
        let holder = Lock<ObservableValue<Int>?>(ObservableValue(0))
        assertLettingGoInTheFirstValueFromAnotherThread_doesNotWait(
            "cell channel: first-value callback waits for a thread that releases the cell",
            of: holder.withLock { $0!.channel },
            letGo: { holder.withLock { $0 = nil } }
        )
    }

    /// Subscribes to `signal`, whose first value is 0; that callback has another thread call
    /// `letGo` (which lets go of what `signal` comes from) and waits for it: `letGo` must not wait
    /// for the callback, and the subscription completes after the value.
    private func assertLettingGoInTheFirstValueFromAnotherThread_doesNotWait<Failure: Error>(
        _ name: String,
        of signal: Signal<Int, Failure>,
        letGo: @escaping @Sendable () -> Void
    ) {
        withWatchdog(name) {
            let events = Recorder<String>()
            _ = signal.subscribe(
                next: { value in
                    events.record("next \(value)")
                    let released = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        // Let go of inside `letGo`'s lock, so before the semaphore is signalled.
                        letGo()
                        released.signal()
                    }
                    XCTAssertTrue(released.waitForSignal(), "letting go waited for the callback")
                },
                completed: { events.record("completed") }
            )
            XCTAssertTrue(eventually { events.values == ["next 0", "completed"] }, "\(events.values)")
        }
    }

    // MARK: Observation

    func testObservation_ofEachKindOfDerivedProperty_firesOnceOnTheWritingThread() {
        let cell = ObservableValue(1)
        let other = ObservableValue(10)
        let (source, input) = Signal<Int, Never>.pipe()
        let properties: [(String, @Sendable () -> Void)] = {
            let mapped = Property(cell).map { $0 * 2 }
            let combined = Property(cell).combineLatest(with: Property(other))
            let zipped = Property(cell).zip(with: Property(other))
            let following = Property(initial: 0, then: source)
            return [
                ("map", { _ = mapped.value }),
                ("combineLatest", { _ = combined.value }),
                ("zip", { _ = zipped.value; withExtendedLifetime(zipped) {} }),
                ("initial:then:", { _ = following.value; withExtendedLifetime(following) {} }),
            ]
        }()
        for (name, read) in properties {
            let fired = Recorder<Bool>()
            withObservationTracking { read() } onChange: { fired.record(Thread.isMainThread) }
            onAPlainThread {
                cell.value += 1
                other.value += 1
                input.sendNext(5)
            }
            XCTAssertEqual(fired.values, [false], "\(name): onChange, once, on the writing thread")
        }
    }

    func testObservation_aWriteFromInsideOnChange_isStoredAndPublishedLast() {
        let cell = ObservableValue(0)
        let received = Recorder<Int>()
        _ = cell.signal.subscribeNext { received.record($0) }
        let fired = Counter()
        withObservationTracking { _ = cell.value } onChange: {
            fired.increment()
            cell.value = 5
        }
        cell.value = 1
        XCTAssertEqual(fired.value, 1)
        XCTAssertEqual(cell.value, 5)
        XCTAssertEqual(received.values.last, 5)
        XCTAssertEqual(received.values.first, 0)
    }

    func testObservation_aWriteFromInsideOnChange_reachesARegistrationMadeThere() {
        let cell = ObservableValue(0)
        let fired = Counter()
        let retracked = Recorder<Int>()
        withObservationTracking { _ = cell.value } onChange: {
            fired.increment()
            withObservationTracking { _ = cell.value } onChange: { retracked.record(cell.value) }
            cell.value = 5
        }
        cell.value = 1
        XCTAssertEqual(fired.value, 1)
        XCTAssertEqual(retracked.values, [5], "the re-tracking hears of the write made in onChange, once")
        cell.value = 6
        XCTAssertEqual(retracked.values, [5])
    }

    func testObservation_writesFromInsideOnChangeOnTwoThreads_endWithTheLastWriteStored() {
        let rounds = BuildKind.raceRounds(optimized: 200, debug: 100, sanitized: 30)
        for round in 0..<rounds {
            let cell = ObservableValue(0)
            let fired = Counter()
            // Weakly: a registration kept after racing writes (below) would otherwise hold the
            // cell that holds it, a cycle LeakSanitizer reports.
            withObservationTracking { _ = cell.value } onChange: { [weak cell] in
                fired.increment()
                cell?.value = -1
            }
            let go = DispatchSemaphore(value: 0)
            let writer = startThread("writes") {
                go.wait()
                cell.value = round + 1
            }
            go.signal()
            cell.value = round + 2
            XCTAssertTrue(eventually { writer.isSet })
            // Swift's Observation may call a registration once per racing write; and now and then
            // (a loaded debug run: 16 and 41 calls in 2 of 100 rounds) it keeps the registration
            // after racing writes, so the write made inside onChange calls it again, a bounded
            // number of times. Asked here: at least one call, and that the loop ends (the test
            // returns); the repeated calls are a known defect, left for the Observation bridge's
            // own work.
            XCTAssertGreaterThanOrEqual(fired.value, 1, "round \(round)")
            XCTAssertTrue([-1, round + 1, round + 2].contains(cell.value))
        }
    }

    func testObservation_aWriteFromAnotherThreadRightAfterTheTrackingReturns_isNeverMissed() {
        let rounds = BuildKind.raceRounds(optimized: 200, debug: 100, sanitized: 30)
        var missed = 0
        for round in 0..<rounds {
            let cell = ObservableValue(0)
            let fired = Flag()
            let go = DispatchSemaphore(value: 0)
            let writer = startThread("writes") {
                go.wait()
                cell.value = round + 1
            }
            withObservationTracking { _ = cell.value } onChange: { fired.set() }
            go.signal()
            XCTAssertTrue(eventually { writer.isSet })
            if !fired.isSet { missed += 1 }
        }
        XCTAssertEqual(missed, 0, "onChange was missed for a write after the tracking")
    }

    func testObservation_aCellFirstReadInsideTrackingWhileAnotherThreadWrites_neverMissesALaterChange() {
        // The cell has never been read when the tracking starts: the "never read skips Observation"
        // shortcut is what is raced.
        let rounds = BuildKind.raceRounds(optimized: 200, debug: 100, sanitized: 30)
        var missed = 0
        for _ in 0..<rounds {
            let cell = ObservableValue(0)
            let fired = Flag()
            let stop = Flag()
            let writer = startThread("writes") {
                var value = 0
                while !stop.isSet {
                    value += 1
                    cell.value = value
                }
            }
            var seen = 0
            withObservationTracking { seen = cell.value } onChange: { fired.set() }
            // Whatever the writer did meanwhile, it writes again after this: a change after the read.
            let after = cell.value
            XCTAssertTrue(eventually { cell.value != after || fired.isSet })
            stop.set()
            XCTAssertTrue(eventually { writer.isSet })
            _ = seen
            if !fired.isSet { missed += 1 }
        }
        XCTAssertEqual(missed, 0, "onChange was never called although the value changed after the tracked read")
    }
}
