import Dispatch

// Other libraries' scheduler type names, each unavailable, so that code typed from memory makes
// the compiler name ours instead of saying "cannot find 'MainScheduler' in scope". An unavailable
// declaration never competes with an available one: where a module that defines the real type
// (RxSwift, ReactiveSwift, during a migration) is imported too, the plain name means that module's
// type, as if these did not exist. (ReactiveSwift's `QueueScheduler` and `TestScheduler` have the
// same names as ours: with both imported, qualify them.)
//
// The ones a program makes or reads (`MainScheduler.instance`, `UIScheduler()`) are schedulers of
// their own with the peer's initializers and members, so that `observe(on: MainScheduler.instance)`
// type-checks up to the one error that names ours.

/// RxSwift's `MainScheduler`: `Scheduler.main` here (`MainScheduler.instance`,
/// `MainScheduler.asyncInstance`).
@available(*, unavailable, message: "RxSwift's MainScheduler.instance is Scheduler.main here (deliverOnMainThread() delivers a signal's events on it)")
public final class MainScheduler: Scheduler, @unchecked Sendable {
    public static var instance: MainScheduler { MainScheduler() }
    public static var asyncInstance: MainScheduler { MainScheduler() }
    private init() { super.init(name: "MainScheduler") }
}

/// ReactiveSwift's `UIScheduler`: `Scheduler.main` here.
@available(*, unavailable, message: "ReactiveSwift's UIScheduler() is Scheduler.main here (deliverOnMainThread() delivers a signal's events on it)")
public final class UIScheduler: Scheduler, @unchecked Sendable {
    public init() { super.init(name: "UIScheduler") }
}

/// RxSwift's `ConcurrentDispatchQueueScheduler`: `Scheduler.background(priority:)` here, which
/// is serial, as every scheduler here is.
@available(*, unavailable, message: "RxSwift's ConcurrentDispatchQueueScheduler(qos:) is Scheduler.background(priority:) here, a serial scheduler on a global queue (every scheduler here runs its blocks one at a time); QueueScheduler(name:targetQueue:) targets a queue of your own")
public final class ConcurrentDispatchQueueScheduler: Scheduler, @unchecked Sendable {
    public init(qos: DispatchQoS) { super.init(name: "ConcurrentDispatchQueueScheduler") }
    public init(queue: DispatchQueue) { super.init(name: "ConcurrentDispatchQueueScheduler") }
}

/// RxSwift's `SerialDispatchQueueScheduler`: ``QueueScheduler`` here.
@available(*, unavailable, message: "RxSwift's SerialDispatchQueueScheduler(qos:) is Scheduler.background(priority:) here; SerialDispatchQueueScheduler(queue:) is QueueScheduler(name:targetQueue:)")
public final class SerialDispatchQueueScheduler: Scheduler, @unchecked Sendable {
    public init(qos: DispatchQoS, internalSerialQueueName: String = "") { super.init(name: internalSerialQueueName) }
    public init(queue: DispatchQueue, internalSerialQueueName: String) { super.init(name: internalSerialQueueName) }
    public init(internalSerialQueueName: String) { super.init(name: internalSerialQueueName) }
}

/// RxSwift's `CurrentThreadScheduler`: `Scheduler.immediate` here (or `Scheduler.subscription`,
/// which runs on the current scheduler if there is one).
@available(*, unavailable, message: "RxSwift's CurrentThreadScheduler.instance is Scheduler.immediate here, or Scheduler.subscription, which runs on the current scheduler if there is one")
public final class CurrentThreadScheduler: Scheduler, @unchecked Sendable {
    public static var instance: CurrentThreadScheduler { CurrentThreadScheduler() }
    private init() { super.init(name: "CurrentThreadScheduler") }
}

/// RxSwift's `SchedulerType`: ``Scheduler`` here.
@available(*, unavailable, renamed: "Scheduler")
public typealias SchedulerType = Scheduler

/// RxSwift's `ImmediateSchedulerType`: ``Scheduler`` here.
@available(*, unavailable, renamed: "Scheduler")
public typealias ImmediateSchedulerType = Scheduler
