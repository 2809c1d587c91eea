import Disposables
import Foundation
import Observation
import Schedulers
import Signals
import Subjects
import TestSupport
import XCTest

/// A model as an app writes one, not isolated. The tests make its changes on the scheduler given;
/// `@unchecked Sendable` so that blocks for a queue scheduler can capture it.
@Observable
private final class Profile: @unchecked Sendable {
    var name = ""
    var age = 0
    @ObservationIgnored var note = "ignored"
}

/// A model isolated to the main actor, as a SwiftUI view model is.
@Observable @MainActor
private final class SearchModel {
    var query = ""
}

private final class Token: Sendable {}

final class ObservationBridgeTests: LeakCheckedTestCase {
    // MARK: signal(for:on:)

    func testSignal_sendsTheValueThenEachChangeInABlockOfTheScheduler() {
        let scheduler = TestScheduler()
        let profile = Profile()
        let recorder = profile.signal(for: \.name, on: scheduler).record()
        XCTAssertEqual(recorder.events, [], "subscribed off the scheduler: the value comes in a block on it")
        scheduler.advance()
        XCTAssertEqual(recorder.values, [""])

        scheduler.performAsCurrentScheduler { profile.name = "A" }
        XCTAssertEqual(recorder.values, [""], "read after the change, in a block of its own")
        scheduler.advance()
        XCTAssertEqual(recorder.values, ["", "A"])

        scheduler.performAsCurrentScheduler { profile.name = "Ad" }
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile.name = "Ada" }
        scheduler.advance()
        XCTAssertEqual(recorder.values, ["", "A", "Ad", "Ada"])
        recorder.dispose()
    }

    func testSignal_changesInOneBlockArriveAsOneValueTheLast() {
        let scheduler = TestScheduler()
        let profile = Profile()
        let recorder = profile.signal(for: \.age, on: scheduler).record()
        scheduler.advance()
        scheduler.performAsCurrentScheduler {
            profile.age = 1
            profile.age = 2
            profile.age = 3
        }
        scheduler.advance()
        XCTAssertEqual(recorder.values, [0, 3])
        recorder.dispose()
    }

    func testSignal_anotherPropertysChangeSendsNothing() {
        let scheduler = TestScheduler()
        let profile = Profile()
        let recorder = profile.signal(for: \.age, on: scheduler).record()
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile.name = "Ada" }
        scheduler.advance()
        XCTAssertEqual(recorder.values, [0])
        recorder.dispose()
    }

    func testSignal_settingAnEqualValueIsNoChange() {
        // The `@Observable` macro tells of no change when an `Equatable` property is set to an
        // equal value; a type that is not `Equatable` would be told of each set.
        let scheduler = TestScheduler()
        let profile = Profile()
        let recorder = profile.signal(for: \.age, on: scheduler).record()
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile.age = 0 }
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile.age = 1 }
        scheduler.advance()
        XCTAssertEqual(recorder.values, [0, 1])
        recorder.dispose()
    }

    func testSignal_subscribedOnTheSchedulerSendsTheValueAtOnce() {
        let scheduler = TestScheduler()
        let profile = Profile()
        profile.name = "Ada"
        let recorder = RecordingBox<String>()
        scheduler.performAsCurrentScheduler {
            recorder.value = profile.signal(for: \.name, on: scheduler).record()
            XCTAssertEqual(recorder.value?.values, ["Ada"])
        }
        recorder.value?.dispose()
    }

    func testSignal_completesWhenTheObjectGoes() {
        let scheduler = TestScheduler()
        var profile: Profile? = Profile()
        weak let weakProfile = profile
        let recorder = profile!.signal(for: \.name, on: scheduler).record()
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile?.name = "Ada" }
        scheduler.advance()
        profile = nil
        XCTAssertNil(weakProfile, "the signal does not keep the object")
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.next(""), .next("Ada"), .completed])
    }

    func testSignal_completesWhenTheObjectGoesWithAChangeStillToBeRead() {
        let scheduler = TestScheduler()
        var profile: Profile? = Profile()
        let recorder = profile!.signal(for: \.name, on: scheduler).record()
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile?.name = "Ada" }
        profile = nil
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.next(""), .completed])
    }

    func testSignal_subscribedAfterTheObjectWentCompletesAtOnce() {
        let scheduler = TestScheduler()
        var profile: Profile? = Profile()
        let signal = profile!.signal(for: \.name, on: scheduler)
        profile = nil
        XCTAssertEqual(signal.record().events, [.completed])
    }

    func testSignal_anIgnoredPropertySendsItsValueThenCompletes() {
        // No change to it can be seen, nor the object's going: a subscription waiting for them
        // would never end.
        let scheduler = TestScheduler()
        let profile = Profile()
        let recorder = profile.signal(for: \.note, on: scheduler).record()
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile.note = "changed" }
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.next("ignored"), .completed])
    }

    func testSignal_disposalStopsDeliveryAndLetsTheSubscriberGo() {
        let scheduler = TestScheduler()
        let profile = Profile()
        var token: Token? = Token()
        weak let weakToken = token
        let received = Recorder<String>()
        let disposable = profile.signal(for: \.name, on: scheduler).subscribe(next: { [token] in
            _ = token
            received.record($0)
        })
        token = nil
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile.name = "Ada" }
        disposable.dispose()
        XCTAssertNil(weakToken, "disposal lets the subscriber go at once, with a change still to be read")
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile.name = "Grace" }
        scheduler.advance()
        XCTAssertEqual(received.values, [""])
    }

    func testSignal_disposedBeforeTheFirstReadSendsNothing() {
        let scheduler = TestScheduler()
        let profile = Profile()
        let recorder = profile.signal(for: \.name, on: scheduler).record()
        recorder.dispose()
        scheduler.advance()
        XCTAssertEqual(recorder.events, [])
    }

    func testSignal_disposedFromInsideItsCallback() {
        let scheduler = TestScheduler()
        let profile = Profile()
        let recorder = profile.signal(for: \.age, on: scheduler).take(2).record()
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile.age = 1 }
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile.age = 2 }
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.next(0), .next(1), .completed])
        XCTAssertTrue(scheduler.isEmpty, "the tracking stopped: the change scheduled no read")
    }

    func testSignal_fromAGlobalQueue_disposedThere() {
        let scheduler = QueueScheduler(name: "observation test")
        let profile = Profile()
        let received = Recorder<Int>()
        let disposed = Flag()
        DispatchQueue.global().async {
            let disposable = profile.signal(for: \.age, on: scheduler).subscribe(next: { received.record($0) })
            _ = pollWithoutRunningTheMainQueue { !received.values.isEmpty }
            disposable.dispose()
            disposed.set()
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { disposed.isSet })
        scheduler.schedule { profile.age = 5 }
        let read = Flag()
        scheduler.schedule { read.set() }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { read.isSet })
        XCTAssertEqual(received.values, [0])
    }

    func testSignal_eachSubscriptionTracksOnItsOwn() {
        let scheduler = TestScheduler()
        let profile = Profile()
        let signal = profile.signal(for: \.age, on: scheduler)
        let first = signal.record()
        scheduler.advance()
        scheduler.performAsCurrentScheduler { profile.age = 1 }
        let second = signal.record()
        scheduler.advance()
        XCTAssertEqual(first.values, [0, 1])
        XCTAssertEqual(second.values, [1])
        first.dispose()
        second.dispose()
    }

    func testSignal_onTheMainThread_byDefault() {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs tests on the main thread")
        let model = MainActor.assumeIsolated { SearchModel() }
        let threads = Recorder<Bool>()
        let recorder = MainActor.assumeIsolated {
            model.signal(for: \.query).doNext({ _ in threads.record(Thread.isMainThread) }).record()
        }
        XCTAssertEqual(recorder.values, [""], "subscribed on the main thread: the value at once")
        MainActor.assumeIsolated { model.query = "swift" }
        XCTAssertTrue(spinMainRunLoop { recorder.values.count == 2 })
        XCTAssertEqual(recorder.values, ["", "swift"])
        XCTAssertEqual(threads.values, [true, true])
        recorder.dispose()
    }

    func testSignal_subscribedFromAnotherThread_getsTheValueOnTheMainThread() {
        let model = MainActor.assumeIsolated { SearchModel() }
        let signal = MainActor.assumeIsolated { model.signal(for: \.query) }
        let threads = Recorder<Bool>()
        let box = RecordingBox<String>()
        let subscribed = Flag()
        Thread.detachNewThread {
            box.value = signal.doNext({ _ in threads.record(Thread.isMainThread) }).record()
            subscribed.set()
        }
        XCTAssertTrue(spinMainRunLoop { subscribed.isSet && box.value?.values.count == 1 })
        XCTAssertEqual(threads.values, [true])
        box.value?.dispose()
    }

    func testSignal_onAQueueScheduler_changesMadeOnItsQueue() {
        let scheduler = QueueScheduler(name: "observation test")
        let profile = Profile()
        let recorder = profile.signal(for: \.age, on: scheduler).record()
        XCTAssertTrue(pollWithoutRunningTheMainQueue { recorder.values == [0] })
        for age in 1...100 {
            scheduler.schedule { profile.age = age }
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { recorder.values.last == 100 })
        // Coalesced or not, in order and ending with the last change.
        XCTAssertEqual(recorder.values, recorder.values.sorted())
        recorder.dispose()
    }

    // MARK: channel(for:on:)

    func testChannel_sendsTheValueThenChanges_andSetsThePropertyFromValuesSentIn() {
        let scheduler = TestScheduler()
        var profile = Profile()
        let terminal = profile.channel(for: \.name, on: scheduler)
        scheduler.advance()
        let recorder = terminal.record()
        XCTAssertEqual(recorder.values, [""])
        scheduler.performAsCurrentScheduler { profile.name = "Ada" }
        scheduler.advance()
        XCTAssertEqual(recorder.values, ["", "Ada"])

        terminal.sendNext("Grace")
        XCTAssertEqual(profile.name, "Ada", "set in a block of the scheduler")
        scheduler.advance()
        XCTAssertEqual(profile.name, "Grace")
        scheduler.advance()
        XCTAssertEqual(recorder.values, ["", "Ada"], "a value sent in is not sent back out")

        scheduler.performAsCurrentScheduler { profile.name = "Hedy" }
        scheduler.advance()
        XCTAssertEqual(recorder.values, ["", "Ada", "Hedy"], "tracked again after the value sent in")
        // The channel lasts while the object lives.
        profile = Profile()
        scheduler.advance()
        XCTAssertTrue(recorder.events.last?.isFinished == true)
    }

    func testChannel_boundToAnObservableValue_bothWaysConverge() {
        let scheduler = TestScheduler()
        var profile = Profile()
        let field = ObservableValue("")
        let query = profile.channel(for: \.name, on: scheduler)
        let toField = query.subscribe(field.channel)
        let toModel = field.channel.subscribe(query)
        scheduler.advance()

        field.value = "typed"
        scheduler.advance()
        XCTAssertEqual(profile.name, "typed")
        XCTAssertEqual(field.value, "typed")

        scheduler.performAsCurrentScheduler { profile.name = "from the model" }
        scheduler.advance()
        XCTAssertEqual(field.value, "from the model")
        XCTAssertEqual(profile.name, "from the model")
        XCTAssertTrue(scheduler.isEmpty, "nothing bounces between the two")
        toField.dispose()
        toModel.dispose()
        // The channel lasts while the object lives.
        profile = Profile()
        scheduler.advance()
    }

    func testChannel_completesWhenTheObjectGoes() {
        let scheduler = TestScheduler()
        var profile: Profile? = Profile()
        let terminal = profile!.channel(for: \.name, on: scheduler)
        scheduler.advance()
        let recorder = terminal.record()
        profile = nil
        scheduler.advance()
        XCTAssertEqual(recorder.values, [""])
        XCTAssertTrue(recorder.events.last?.isFinished == true)
    }

    func testChannel_valueSentInFromAnotherThreadIsSetOnTheScheduler() {
        let scheduler = QueueScheduler(name: "channel test")
        let profile = Profile()
        let terminal = profile.channel(for: \.age, on: scheduler)
        let done = Flag()
        DispatchQueue.global().async {
            terminal.sendNext(42)
            done.set()
        }
        XCTAssertTrue(pollWithoutRunningTheMainQueue { done.isSet })
        let read = Recorder<Int>()
        XCTAssertTrue(pollWithoutRunningTheMainQueue {
            scheduler.schedule { read.record(profile.age) }
            return read.values.contains(42)
        })
    }
}

/// Holds a recording made inside a closure.
private final class RecordingBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: EventRecorder<Value, Never>?
    var value: EventRecorder<Value, Never>? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
