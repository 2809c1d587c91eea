// Other libraries' type names, one per line: each line's first error names ours (the text after
// "first error:" must be in it).
import Foundation
import ReactiveCocoaSwift

final class TypeNames {
    let bag = DisposeBag()                                              // first error: CompoundDisposable
    let composite = CompositeDisposable()                               // first error: renamed to 'CompoundDisposable'
    let any = AnyDisposable {}                                          // first error: renamed to 'Disposable'
    var cancellables = Set<AnyCancellable>()                            // first error: ScopedDisposable
    var cancellable: Cancellable?                                       // first error: dispose()
    let relay = BehaviorRelay<[String]>(value: [])                      // first error: ObservableValue
    let publish = PublishSubject<String>()                              // first error: Subject<Element, any Error>()
    let publishRelay = PublishRelay<String>()                           // first error: Subject<Element, Never>()
    let replayRelay = ReplayRelay<String>.create(bufferSize: 1)         // first error: ReplaySubject
    let passthrough = PassthroughSubject<String, Never>()               // first error: renamed to 'Subject'
    let current = CurrentValueSubject<Int, Never>(0)                    // first error: BehaviorSubject<Output, Failure>(value:
    let mutable = MutableProperty(0)                                    // first error: ObservableValue(initial)
    let observable = Observable<Int>.just(1)                            // first error: Signal<Element, any Error>.return(x)
    let infallible: Infallible<Int>? = nil                              // first error: Signal<Element, Never>
    let single: Single<Int>? = nil                                      // first error: Signal { try await
    let completable: Completable? = nil                                 // first error: ignoreValues()
    let driver: Driver<[String]>? = nil                                 // first error: deliverOnMainThread()
    let observer: AnyObserver<Int>? = nil                               // first error: Subscriber<Element, any Error>
    let producer = SignalProducer<Int, Never>.empty                     // first error: renamed to 'Signal'
    let publisher: AnyPublisher<Int, Never>? = nil                      // first error: renamed to 'Signal'
    let just = Just(1)                                                  // first error: Signal<Output, Never>.return(value)
    let future: Future<Int, any Error>? = nil                           // first error: Signal { try await work() }
    let deferred: Deferred<Int, Never>? = nil                           // first error: Signal.defer
    let empty = Empty<Int, Never>()                                     // first error: Signal<Output, Failure>.empty
    let fail = Fail<Int, SearchError>(error: SearchError())             // first error: Signal<Output, Failure>.error(e)
    let main = MainScheduler.instance                                   // first error: Scheduler.main
    let ui = UIScheduler()                                              // first error: Scheduler.main
    let concurrent = ConcurrentDispatchQueueScheduler(qos: .background) // first error: Scheduler.background(priority:)
    let serial = SerialDispatchQueueScheduler(qos: .background)         // first error: Scheduler.background(priority:)
    let currentThread = CurrentThreadScheduler.instance                 // first error: Scheduler.immediate
    let schedulerType: SchedulerType? = nil                             // first error: renamed to 'Scheduler'
    let immediateType: ImmediateSchedulerType? = nil                    // first error: renamed to 'Scheduler'
    let action: Action<String, [String], Never>? = nil                  // first error: Command<Input, Output, Error>
    let actionError: ActionError<SearchError>? = nil                    // first error: renamed to 'CommandError'
    let created = Disposables.create()                                  // first error: Disposable()
    let createdWith = Disposables.create { print("disposed") }          // first error: Disposable { ... }
    let createdOf = Disposables.create(Disposable(), Disposable())      // first error: CompoundDisposable([a, b])
    let scope = SubjectLifetimeScope.whileConnected                     // first error: share(replay:) here is RxSwift's scope .whileConnected
}
