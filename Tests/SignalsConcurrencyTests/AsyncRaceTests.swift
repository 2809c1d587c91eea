import Disposables
import Foundation
import Signals
import Synchronization
import TestSupport
import XCTest

/// The async bridges raced 1,000 times (250 under a sanitizer): a value, an error, completion and the task's
/// cancellation against each other (and, for the signals made from async work, the task's end
/// against disposal). Each round checks the outcome is one the race allows, that the task ended
/// (its continuation was resumed: a leaked one hangs the round) and that the subscription was
/// disposed once and freed. A continuation resumed twice crashes.
final class AsyncRaceTests: LeakCheckedTestCase {
    private let rounds = BuildKind.rounds(1_000, sanitized: 250)

    /// What a consuming task ended with.
    private enum Ending: Equatable, Sendable {
        case values([Int])
        case failed([Int])
    }

    /// Runs `consume` in a task over a fresh source, races its events against the task's
    /// cancellation, and checks the round; `allowed` judges the ending, told whether the
    /// subscription itself raced the events (then it may have missed the value 1, which the hot
    /// source sent before it subscribed, and seen only 2).
    private func raceConsumer(
        _ name: String,
        consume: @escaping @Sendable (Signal<Int, TestError>) async -> Ending,
        allowed: (Ending, _ subscriptionRaced: Bool) -> Bool
    ) {
        for round in 0..<rounds {
            let source = HandFedSource<TestError>()
            let ending = Recorder<Ending>()
            let done = DispatchSemaphore(value: 0)
            let task = Task {
                ending.record(await consume(source.signal))
                done.signal()
            }
            // Most rounds race the events; every fourth races the subscription itself.
            let subscriptionRaced = round % 4 == 0
            if !subscriptionRaced, !eventually({ source.subscriptions.value == 1 }) {
                return XCTFail("\(name), round \(round): never subscribed")
            }
            source.raceEveryEnd(cancel: { task.cancel() })
            guard done.wait(timeout: .now() + 10) == .success else {
                return XCTFail("\(name), round \(round): the task never ended (a continuation was left waiting)")
            }
            guard let result = ending.values.first, allowed(result, subscriptionRaced) else {
                return XCTFail("\(name), round \(round): ended with \(ending.values)")
            }
            let settled = eventually { source.disposals.value == source.subscriptions.value && source.subscriptionsAreFreed }
            guard settled, source.subscriptions.value <= 1 else {
                return XCTFail("\(name), round \(round): \(source.subscriptions.value) subscriptions, \(source.disposals.value) disposals, freed: \(source.subscriptionsAreFreed)")
            }
        }
    }

    /// Whether `values` is what a subscriber of the hot source can see: a prefix of 1, 2 (the end
    /// may come between them), or, when it subscribed while they were being sent, 2 alone.
    private static func isPossible(_ values: [Int], subscriptionRaced: Bool) -> Bool {
        [1, 2].starts(with: values) || (subscriptionRaced && values == [2])
    }

    func testRace_valuesAgainstErrorCompletionAndCancellation() {
        raceConsumer("values", consume: { signal in
            var received: [Int] = []
            do {
                for try await value in signal.values { received.append(value) }
                return .values(received)
            } catch {
                return .failed(received)
            }
        }, allowed: { ending, subscriptionRaced in
            switch ending {
            case let .values(values), let .failed(values): Self.isPossible(values, subscriptionRaced: subscriptionRaced)
            }
        })
    }

    func testRace_valuesWithABoundedBuffer() {
        raceConsumer("values(bufferingPolicy: .bufferingNewest(1))", consume: { signal in
            var received: [Int] = []
            do {
                for try await value in signal.values(bufferingPolicy: .bufferingNewest(1)) { received.append(value) }
                return .values(received)
            } catch {
                return .failed(received)
            }
        }, allowed: { ending, _ in
            switch ending {
            case let .values(values), let .failed(values): [[], [1], [2], [1, 2]].contains(values)
            }
        })
    }

    func testRace_firstAgainstErrorCompletionAndCancellation() {
        raceConsumer("first()", consume: { signal in
            do {
                return .values((try await signal.firstValue()).map { [$0] } ?? [])
            } catch {
                return .failed([])
            }
        }, allowed: { ending, subscriptionRaced in
            [.values([]), .values([1]), .failed([])].contains(ending) || (subscriptionRaced && ending == .values([2]))
        })
    }

    func testRace_collectAgainstErrorCompletionAndCancellation() {
        raceConsumer("collect()", consume: { signal in
            do {
                return .values(try await signal.allValues())
            } catch {
                return .failed([])
            }
        }, allowed: { ending, subscriptionRaced in
            switch ending {
            case let .values(values): Self.isPossible(values, subscriptionRaced: subscriptionRaced)
            case let .failed(values): values.isEmpty
            }
        })
    }

    /// The task of `Signal(emitting:)` sends a value and then returns, throws, or waits to be
    /// cancelled, while another thread disposes the subscription as soon as it exists.
    func testRace_emittingTaskEndAgainstDisposal() {
        for round in 0..<rounds {
            let (events, lateEvents, token, signal) = emittingRound(round)
            let allowed: [[Event<Int, TestError>]] = [[], [.next(1)], [.next(1), .completed], [.next(1), .error(.first)]]
            guard allowed.contains(events), lateEvents <= 1 else {
                return XCTFail("round \(round): \(events), \(lateEvents) after dispose() returned")
            }
            guard eventually({ !token.isAlive && !signal.isAlive }) else {
                return XCTFail("round \(round): the task never ended, or kept its work")
            }
        }
    }

    /// One round of ``testRace_emittingTaskEndAgainstDisposal()``: the events, how many came
    /// after `dispose()` returned, and weak references to the body's token and the signal.
    private func emittingRound(_ round: Int) -> ([Event<Int, TestError>], Int, WeakReference<LifetimeToken>, WeakReference<Signal<Int, TestError>>) {
        let events = Recorder<Event<Int, TestError>>()
        let disposeReturned = Atomic<Bool>(false)
        let lateEvents = Counter()
        let box = DisposableBox()
        let (signal, token) = trackingLifetime { token in
            Signal<Int, TestError>(emitting: { send throws(TestError) in
                withExtendedLifetime(token) {}
                send(1)
                switch round % 3 {
                case 0: return
                case 1: throw .first
                default:
                    while !Task.isCancelled { await Task.yield() }
                }
            })
        }
        let record: @Sendable (Event<Int, TestError>) -> Void = { event in
            if disposeReturned.load(ordering: .acquiring) { lateEvents.increment() }
            events.record(event)
        }
        race(threads: 2) { thread in
            if thread == 0 {
                box.disposable = signal.subscribe(
                    next: { record(.next($0)) },
                    error: { record(.error($0)) },
                    completed: { record(.completed) }
                )
            } else {
                // Polls: the other thread stores the disposable as soon as `subscribe` returns.
                XCTAssertTrue(eventually { box.disposable != nil }, "round \(round): subscribe never returned")
                box.disposable?.dispose()
                disposeReturned.store(true, ordering: .releasing)
            }
        }
        return (events.values, lateEvents.value, token, WeakReference(signal))
    }
}
