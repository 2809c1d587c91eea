import Disposables
import Foundation
import Schedulers
import Signals
import TestSupport
import XCTest

/// The async bridges consumed on the main actor (where the signal subscribes at once, inside the
/// first `next`, and the loop resumes on the main queue) raced against values, the end and the
/// task's cancellation from other threads, and over a source delivered on the main queue.
final class AsyncBridgeMainActorRaceTests: LeakCheckedTestCase {
    private let rounds = 200

    private enum Ending: Equatable, Sendable {
        case values([Int])
        case failed([Int])
    }

    @MainActor
    private func raceOnTheMainActor(
        _ name: String,
        deliveringOnMain: Bool,
        consume: @escaping @MainActor (Signal<Int, TestError>) async -> Ending
    ) async {
        for round in 0..<rounds {
            let source = HandFedSource<TestError>()
            let signal = deliveringOnMain ? source.signal.deliver(on: .main) : source.signal
            let task = Task { @MainActor in await consume(signal) }
            let subscribed = await eventually { source.subscriptions.value == 1 }
            guard subscribed else { return XCTFail("\(name), round \(round): never subscribed") }
            let racing = Task.detached {
                source.raceEveryEnd(cancel: { task.cancel() })
            }
            await racing.value
            guard let ending = await withTimeout({ await task.value }) else {
                return XCTFail("\(name), round \(round): the task never ended")
            }
            switch ending {
            case let .values(values), let .failed(values):
                guard [1, 2].starts(with: values) else { return XCTFail("\(name), round \(round): \(ending)") }
            }
            let settled = await eventually { source.disposals.value == 1 && source.subscriptionsAreFreed }
            guard settled else {
                return XCTFail("\(name), round \(round): \(source.disposals.value) disposals, freed: \(source.subscriptionsAreFreed)")
            }
        }
    }

    @MainActor
    func testReview_valuesOnTheMainActorRaced() async {
        await raceOnTheMainActor("values", deliveringOnMain: false) { signal in
            var received: [Int] = []
            do {
                for try await value in signal.values {
                    XCTAssertTrue(Thread.isMainThread)
                    received.append(value)
                }
                return .values(received)
            } catch {
                return .failed(received)
            }
        }
    }

    @MainActor
    func testReview_valuesOnTheMainActorOfASourceDeliveredOnMainRaced() async {
        await raceOnTheMainActor("values of deliver(on: .main)", deliveringOnMain: true) { signal in
            var received: [Int] = []
            do {
                for try await value in signal.values(bufferingPolicy: .bufferingOldest(1)) {
                    received.append(value)
                }
                return .values(received)
            } catch {
                return .failed(received)
            }
        }
    }

    @MainActor
    func testReview_collectFromTheMainActorOfASourceDeliveredOnMainRaced() async {
        await raceOnTheMainActor("collect of deliver(on: .main)", deliveringOnMain: true) { signal in
            do {
                return .values(try await signal.allValues())
            } catch {
                return .failed([])
            }
        }
    }
}
