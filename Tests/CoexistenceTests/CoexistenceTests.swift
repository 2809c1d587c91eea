import Foundation
import PeerLookalikes
import ReactiveCocoaSwift
import TestSupport
import XCTest

/// This library's hints for other libraries' type names (`DisposeBag`, `PublishSubject`,
/// `AnyCancellable`, …, unavailable declarations that name ours) never get in the way of the real
/// ones: a module that imports this library and one that declares those types (RxSwift,
/// ReactiveSwift, Combine or OpenCombine, during a migration; here PeerLookalikes stands for them)
/// still means theirs by the plain name. An unavailable declaration never competes with an
/// available one of the same name. This file compiling is most of the proof; each test also
/// checks that the name meant the peer's type.
final class CoexistenceTests: XCTestCase {
    func testPeerTypeNames_meanThePeersTypesBesideOurs() {
        var cancellables = Set<AnyCancellable>()
        cancellables.insert(AnyCancellable {})
        let cancellable: Cancellable = AnyCancellable {}
        cancellable.cancel()
        let peers: [any PeerType] = [
            DisposeBag(), CompositeDisposable(), AnyDisposable {}, cancellables.first!, Disposables(),
            PublishSubject<Int>(), PublishRelay<Int>(), BehaviorRelay(value: 0), ReplayRelay<Int>.create(bufferSize: 1),
            SubjectLifetimeScope.whileConnected,
            PassthroughSubject<Int, Never>(), CurrentValueSubject<Int, Never>(0), MutableProperty(0),
            Observable<Int>.just(1), Infallible<Int>(), Single<Int>(), Completable(), Driver<Int>(), AnyObserver<Int>(),
            SignalProducer<Int, Never>(value: 1), AnyPublisher<Int, Never>(), Just(1),
            Future<Int, Never> { promise in promise(.success(1)) }, Deferred { Just(1) },
            Empty<Int, Never>(), Fail<Int, CancellationError>(error: CancellationError()),
            MainScheduler.instance, UIScheduler(), ConcurrentDispatchQueueScheduler(qos: .default),
            SerialDispatchQueueScheduler(qos: .default), CurrentThreadScheduler.instance,
            Action<Int, Int, Never> { SignalProducer(value: $0) }, ActionError<CancellationError>.disabled,
        ]
        XCTAssertEqual(Set(peers.map(\.peer)), ["PeerLookalikes"])
        XCTAssertTrue(type(of: Disposables.create()) == DisposeBag.self, "Disposables.create() should be the peer's")
        let schedulers: [any ImmediateSchedulerType] = [MainScheduler.instance, CurrentThreadScheduler.instance]
        XCTAssertEqual(schedulers.count, 2)
        _ = schedulers.compactMap { $0 as? any SchedulerType }
    }

    /// Ours still work beside theirs, by their own names, in the same file.
    func testOurNames_stillWorkBesideThePeers() {
        let subscriptions = CompoundDisposable()
        let subject = Subject<Int, Never>()
        let value = ObservableValue(0)
        let received = ReplaySubject<Int, Never>()
        subscriptions.add(subject.merge(value.signal).subscribe(received))
        subject.sendNext(1)
        value.value = 2
        subscriptions.dispose()
        subject.sendNext(3)
        received.sendCompleted()
        XCTAssertEqual(received.toArray(), [0, 1, 2])
        XCTAssertTrue(Scheduler.main === Scheduler.main)
    }

    /// PeerLookalikes declares every type name that this library hints at, so that the test above
    /// covers each: the unavailable top-level declarations of Sources.
    func testPeerLookalikes_declaresEveryHintedTypeName() throws {
        let lookalikes = try PackageSource.read("Tests/PeerLookalikes/PeerLookalikes.swift")
        for declaration in try PackageSource.unavailableTopLevelDeclarations() where declaration.keyword != "func" {
            let name = declaration.name
            XCTAssertTrue(
                lookalikes.contains(" \(name)<") || lookalikes.contains(" \(name):") || lookalikes.contains(" \(name) "),
                "\(name) (\(declaration.location)) is not declared in Tests/PeerLookalikes: add it there and use it in CoexistenceTests"
            )
        }
    }
}
