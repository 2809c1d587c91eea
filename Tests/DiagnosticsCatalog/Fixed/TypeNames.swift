import Foundation
import ReactiveCocoaSwift

final class TypeNames {
    let bag = CompoundDisposable()
    let composite = CompoundDisposable()
    let any = Disposable {}
    let cancellables = CompoundDisposable()
    var cancellable: Disposable?
    let relay = ObservableValue<[String]>([])
    let publish = Subject<String, any Error>()
    let publishRelay = Subject<String, Never>()
    let replayRelay = ReplaySubject<String, Never>(capacity: 1)
    let passthrough = Subject<String, Never>()
    let current = BehaviorSubject<Int, Never>(value: 0)
    let mutable = ObservableValue(0)
    let observable = Signal<Int, any Error>.return(1)
    let infallible: Signal<Int, Never>? = nil
    let single: Signal<Int, any Error>? = nil
    let completable: Signal<Never, any Error>? = nil
    let driver: Signal<[String], Never>? = nil
    let observer: Subscriber<Int, any Error>? = nil
    let producer = Signal<Int, Never>.empty
    let publisher: Signal<Int, Never>? = nil
    let just = Signal<Int, Never>.return(1)
    let future: Signal<Int, any Error>? = nil
    let deferred: Signal<Int, Never>? = nil
    let empty = Signal<Int, Never>.empty
    let fail = Signal<Int, SearchError>.error(SearchError())
    let main = Scheduler.main
    let ui = Scheduler.main
    let concurrent = Scheduler.background(priority: .background)
    let serial = Scheduler.background(priority: .background)
    let currentThread = Scheduler.immediate
    let schedulerType: Scheduler? = nil
    let immediateType: Scheduler? = nil
    let action: Command<String, [String], Never>? = nil
    let actionError: CommandError<SearchError>? = nil
    let created = Disposable()
    let createdWith = Disposable { print("disposed") }
    let createdOf = CompoundDisposable([Disposable(), Disposable()])
    let scope = Signal<Int, Never>.never.share(replay: 1)
}
