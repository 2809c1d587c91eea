// The type names of RxSwift, RxRelay, RxCocoa, ReactiveSwift and Combine that this library
// declares as unavailable hints, declared here as another library would: the real types of a module
// imported beside this one during a migration. CoexistenceTests imports both and uses these by
// their plain names; each type says which it is (`peer`), so the test can tell that the name meant
// this module's type and not the hint.
import Dispatch

/// A peer's type: it says it is one.
public protocol PeerType {
    static var peer: String { get }
}

extension PeerType {
    public static var peer: String { "PeerLookalikes" }
    public var peer: String { Self.peer }
}

public final class DisposeBag: PeerType { public init() {} }
public final class CompositeDisposable: PeerType { public init() {} }
public final class AnyDisposable: PeerType { public init(_ action: @escaping () -> Void) {} }
public protocol Cancellable { func cancel() }
public final class AnyCancellable: PeerType, Cancellable, Hashable {
    public init(_ cancel: @escaping () -> Void) {}
    public func cancel() {}
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
public struct Disposables: PeerType {
    public init() {}
    public static func create() -> DisposeBag { DisposeBag() }
    public static func create(with dispose: @escaping () -> Void) -> DisposeBag { DisposeBag() }
}

public final class PublishSubject<Element>: PeerType { public init() {}; public func onNext(_ element: Element) {} }
public final class PublishRelay<Element>: PeerType { public init() {}; public func accept(_ element: Element) {} }
public final class BehaviorRelay<Element>: PeerType { public var value: Element; public init(value: Element) { self.value = value } }
public enum SubjectLifetimeScope: PeerType { case whileConnected, forever }
public final class ReplayRelay<Element>: PeerType { public static func create(bufferSize: Int) -> ReplayRelay { ReplayRelay() } }
public final class PassthroughSubject<Output, Failure: Error>: PeerType { public init() {}; public func send(_ input: Output) {} }
public final class CurrentValueSubject<Output, Failure: Error>: PeerType { public var value: Output; public init(_ value: Output) { self.value = value } }
public final class MutableProperty<Value>: PeerType { public var value: Value; public init(_ value: Value) { self.value = value } }

public class Observable<Element>: PeerType { public init() {}; public static func just(_ element: Element) -> Observable { Observable() } }
public struct Infallible<Element>: PeerType { public init() {} }
public struct PrimitiveSequence<Trait, Element>: PeerType { public init() {} }
public enum SingleTrait {}
public enum CompletableTrait {}
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>
public typealias Completable = PrimitiveSequence<CompletableTrait, Never>
public struct SharedSequence<Strategy, Element>: PeerType { public init() {} }
public enum DriverSharingStrategy {}
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>
public struct AnyObserver<Element>: PeerType { public init() {} }
public struct SignalProducer<Value, Error: Swift.Error>: PeerType { public init(value: Value) {} }
public struct AnyPublisher<Output, Failure: Error>: PeerType { public init() {} }
public struct Just<Output>: PeerType { public let output: Output; public init(_ output: Output) { self.output = output } }
public final class Future<Output, Failure: Error>: PeerType { public init(_ attemptToFulfill: @escaping (@escaping (Result<Output, Failure>) -> Void) -> Void) {} }
public struct Deferred<DeferredPublisher>: PeerType { public init(createPublisher: @escaping () -> DeferredPublisher) {} }
public struct Empty<Output, Failure: Error>: PeerType { public init(completeImmediately: Bool = true) {} }
public struct Fail<Output, Failure: Error>: PeerType { public init(error: Failure) {} }

public protocol ImmediateSchedulerType {}
public protocol SchedulerType: ImmediateSchedulerType {}
public final class MainScheduler: PeerType, SchedulerType, Sendable { public static let instance = MainScheduler() }
public final class UIScheduler: PeerType, SchedulerType { public init() {} }
public final class ConcurrentDispatchQueueScheduler: PeerType, SchedulerType { public init(qos: DispatchQoS) {} }
public final class SerialDispatchQueueScheduler: PeerType, SchedulerType { public init(qos: DispatchQoS) {} }
public final class CurrentThreadScheduler: PeerType, ImmediateSchedulerType, Sendable { public static let instance = CurrentThreadScheduler() }

public final class Action<Input, Output, Error: Swift.Error>: PeerType { public init(execute: @escaping (Input) -> SignalProducer<Output, Error>) {} }
public enum ActionError<Error: Swift.Error>: Swift.Error, PeerType { case disabled }
