import Foundation
import TestSupport
import XCTest

/// The compiler, not only the documentation, points a user of ReactiveSwift, RxSwift or Combine
/// from the name they type to ours: each spelling below is type-checked, as a user's code outside
/// this package, against the modules of the running build, and must draw exactly one error, the
/// one that names our operator (the unavailable stubs of Sources/Signals/OtherLibraries). And the
/// stubs leave our own calls alone: the second check type-checks valid calls that share a base
/// name with a stub, and a user's `extension Signal` that calls `print`, `max` and the other
/// global functions unqualified.
///
/// One `swiftc -typecheck` run for all the spellings (under a second), through TestSupport's
/// `TypeCheck`, which finds the compiler and the running build's modules.
final class OtherLibrariesNamesTests: XCTestCase {
    /// A peer's spelling, one statement, and the parts of the error it must draw.
    private struct Spelling {
        let code: String
        let expected: [String]

        /// A spelling whose stub renames it to `ours`.
        static func renamed(_ code: String, to ours: String) -> Spelling {
            Spelling(code: code, expected: ["has been renamed to '\(ours)'"])
        }

        /// A spelling whose stub is unavailable with a message that contains `message`.
        static func message(_ code: String, _ message: String) -> Spelling {
            Spelling(code: code, expected: ["is unavailable: ", message])
        }
    }

    /// What every file of spellings starts with: the modules a user imports, and a function whose
    /// parameters the spellings use.
    private static let header = """
        import Disposables
        import Foundation
        import Schedulers
        import Signals
        import Subjects

        func spellings(
            numbers: Signal<Int, Never>,
            other: Signal<Int, Never>,
            failing: Signal<Int, any Error>,
            typed: Signal<Int, CancellationError>,
            nested: Signal<Signal<Int, Never>, Never>,
            optionals: Signal<Int?, Never>,
            scheduler: Scheduler,
            testScheduler: TestScheduler,
            input: Subscriber<Int, Never>,
            failingInput: Subscriber<Int, any Error>,
            subject: Subject<Int, Never>,
            bag: CompoundDisposable
        ) {
        """

    private static let reactiveSwift: [Spelling] = [
        .renamed("_ = numbers.debounce(0.3, on: scheduler)", to: "throttle(_:on:)"),
        .renamed("_ = numbers.observe(on: scheduler)", to: "deliver(on:)"),
        .renamed("_ = numbers.start(on: scheduler)", to: "subscribe(on:)"),
        .renamed("_ = numbers.take(first: 2)", to: "take(_:)"),
        .renamed("_ = numbers.skip(first: 2)", to: "skip(_:)"),
        .renamed("_ = numbers.skipRepeats()", to: "distinctUntilChanged()"),
        .renamed("_ = numbers.skipRepeats { $0 == $1 }", to: "distinctUntilChanged(by:)"),
        .renamed("_ = numbers.prefix(value: 0)", to: "startWith(_:)"),
        .renamed("_ = failing.flatMapError { _ in numbers }", to: "catch(_:)"),
        .renamed("_ = failing.retry(upTo: 3)", to: "retry(_:)"),
        .renamed("_ = failing.attemptMap { $0 * 2 }", to: "tryMap(_:)"),
        .renamed("_ = failing.timeout(after: 1, raising: CancellationError(), on: scheduler)", to: "timeout(_:on:raising:)"),
        .renamed("_ = numbers.sample(on: other)", to: "sample(_:)"),
        .renamed("_ = optionals.skipNil()", to: "ignoreNil()"),
        .renamed("_ = numbers.filterMap { $0 > 1 ? $0 : nil }", to: "compactMap(_:)"),
        .renamed("_ = numbers.logEvents()", to: "debug(_:)"),
        .renamed("_ = numbers.logEvents(identifier: \"numbers\")", to: "debug(_:)"),
        .renamed("_ = failing.retry(upTo: 3, interval: 1, on: scheduler)", to: "retry(_:delay:on:)"),
        .message("_ = numbers.replayLazily(upTo: 1)", "replayLazily() (module Subjects) keeps every value"),
        .message("_ = numbers.on(value: { print($0) })", "on(value:) is doNext(_:)"),
        .message("_ = numbers.on(failed: { print($0) }, completed: {}, value: { _ in })", "on(failed:) doError(_:)"),
        .renamed("_ = numbers.start()", to: "subscribe()"),
        .renamed("_ = numbers.startWithValues { print($0) }", to: "subscribeNext(_:)"),
        .renamed("_ = failing.startWithFailed { print($0) }", to: "subscribeError(_:)"),
        .renamed("_ = numbers.startWithCompleted { print(0) }", to: "subscribeCompleted(_:)"),
        .renamed("_ = numbers.observeValues { print($0) }", to: "subscribeNext(_:)"),
        .renamed("_ = failing.observeFailed { print($0) }", to: "subscribeError(_:)"),
        .renamed("_ = numbers.observeCompleted { print(0) }", to: "subscribeCompleted(_:)"),
        .renamed("_ = Signal<Date, Never>.timer(interval: 1, on: scheduler)", to: "interval(_:on:leeway:)"),
        .renamed("_ = Signal<Date, Never>.timer(interval: .seconds(1), on: scheduler)", to: "interval(_:on:leeway:)"),
        .renamed("_ = Signal<Int, Never>(value: 1)", to: "return(_:)"),
        .renamed("_ = Signal<Int, any Error>(error: CancellationError())", to: "error(_:)"),
        .message("_ = Signal<Int, Never>(values: [1, 2])", "LazyList(values).signal() (module Sequences)"),
        .message("_ = numbers.flatMap(.latest) { _ in other }", "flatMap(.latest) is flatMapLatest(_:) here"),
        .renamed("_ = numbers.withLatest(from: other)", to: "withLatestFrom(_:)"),
        .renamed("_ = numbers.collect(count: 3)", to: "buffer(count:)"),
        .message("_ = numbers.flatMap(.merge) { _ in other }", "flatMap(.merge) is flattenMap(_:) here"),
        .message("_ = numbers.flatMap(.concat) { _ in other }", "flatMap(.concat) is map(_:) then concat() here"),
        .message("_ = numbers.flatMap(.concurrent(limit: 2)) { _ in other }", "is map(_:) then flatten(maxConcurrent: n) here"),
        .message("_ = nested.flatten(.latest)", "flatten(.latest) is switchToLatest() here"),
        .message("_ = nested.flatten(.merge)", "flatten(.merge) is flatten() here"),
        .message("_ = nested.flatten(.concat)", "flatten(.concat) is concat() here"),
        .message("_ = nested.flatten(.concurrent(limit: 2))", "is flatten(maxConcurrent: n) here"),
        .renamed("_ = numbers.merge(with: other)", to: "merge(_:)"),
        .renamed("_ = numbers.reduce(0, +)", to: "aggregate(_:_:)"),
    ]

    private static let rxSwift: [Spelling] = [
        .renamed("_ = numbers.debounce(0.3, scheduler: scheduler)", to: "throttle(_:on:)"),
        .renamed("_ = numbers.debounce(.milliseconds(300), scheduler: scheduler)", to: "throttle(_:on:)"),
        Spelling(code: "_ = numbers.throttle(0.3, scheduler: scheduler)", expected: ["has been renamed to 'rateLimit(_:on:latest:)'", "RxSwift's throttle limits the rate"]),
        Spelling(code: "_ = numbers.throttle(.milliseconds(300), latest: false, scheduler: scheduler)", expected: ["has been renamed to 'rateLimit(_:on:latest:)'", "in seconds"]),
        .renamed("_ = numbers.delay(0.3, scheduler: scheduler)", to: "delay(_:on:)"),
        .renamed("_ = numbers.delay(.seconds(1), scheduler: scheduler)", to: "delay(_:on:)"),
        .renamed("_ = failing.timeout(1, scheduler: scheduler)", to: "timeout(_:on:)"),
        .renamed("_ = failing.timeout(.seconds(1), scheduler: scheduler)", to: "timeout(_:on:)"),
        .renamed("_ = numbers.observeOn(scheduler)", to: "deliver(on:)"),
        .renamed("_ = numbers.subscribeOn(scheduler)", to: "subscribe(on:)"),
        .renamed("_ = numbers.flatMap { _ in other }", to: "flattenMap(_:)"),
        .message("_ = numbers.concatMap { _ in other }", "concatMap(_:) is map(_:) then concat() here"),
        .renamed("_ = nested.switchLatest()", to: "switchToLatest()"),
        .renamed("_ = numbers.withLatestFrom(other, resultSelector: { $0 + $1 })", to: "withLatestFrom(_:_:)"),
        .renamed("_ = numbers.buffer(timeSpan: 1, count: 10, scheduler: scheduler)", to: "buffer(count:interval:on:)"),
        .renamed("_ = numbers.buffer(timeSpan: .seconds(1), count: 10, scheduler: scheduler)", to: "buffer(count:interval:on:)"),
        .renamed("_ = nested.merge()", to: "flatten()"),
        .renamed("_ = nested.merge(maxConcurrent: 2)", to: "flatten(maxConcurrent:)"),
        .renamed("_ = numbers.subscribe(onNext: { print($0) })", to: "subscribe(next:error:completed:)"),
        .renamed(
            "_ = numbers.subscribe(onNext: { _ in }, onError: { _ in }, onCompleted: {}, onDisposed: {})",
            to: "subscribe(next:error:completed:)"
        ),
        .renamed("_ = numbers.bind(onNext: { print($0) })", to: "subscribeNext(_:)"),
        .message("_ = numbers.bind(to: subject)", "subscribe(_:) a Subject to the signal"),
        .message("_ = numbers.do(onNext: { print($0) })", "do(onNext:) is doNext(_:)"),
        .message(
            "_ = numbers.do(onNext: { _ in }, onError: { _ in }, onCompleted: {}, onSubscribe: {}, onDispose: {})",
            "do(onNext:) is doNext(_:)"
        ),
        .renamed("_ = numbers.ignoreElements()", to: "ignoreValues()"),
        .renamed("_ = numbers.takeUntil(other)", to: "take(until:)"),
        .renamed("_ = numbers.takeWhile { $0 < 3 }", to: "take(while:)"),
        .renamed("_ = numbers.takeLast(2)", to: "take(last:)"),
        .renamed("_ = numbers.skipWhile { $0 < 3 }", to: "skip(while:)"),
        .renamed("_ = numbers.skipUntil(other)", to: "skip(until:)"),
        .renamed("_ = numbers.ifEmpty(default: 0)", to: "replaceEmpty(with:)"),
        .renamed("_ = failing.catchError { _ in numbers }", to: "catch(_:)"),
        .renamed("_ = failing.catchError { _ in .empty }", to: "catch(_:)"),
        Spelling(code: "_ = typed.timeout(1, scheduler: scheduler)", expected: ["has been renamed to 'timeout(_:on:)'", "timeout(_:on:raising:)"]),
        .message("_ = failing.catchAndReturn(0)", "catchAndReturn(value) is catch(to: .return(value)) here"),
        .message("_ = failing.catchErrorJustReturn(0)", "catchErrorJustReturn(value) is catch(to: .return(value)) here"),
        .message("_ = numbers.asObservable()", "a Signal is already the one signal type"),
        .message(
            "_ = failing.asDriver(onErrorJustReturn: 0)",
            "asDriver(onErrorJustReturn: value) is catch(to: Signal<Value, Never>.return(value)).deliverOnMainThread() here"
        ),
        .message("_ = failing.asDriver(onErrorDriveWith: numbers)", "asDriver(onErrorDriveWith: fallback) is catch(to: fallback).deliverOnMainThread() here"),
        .message("_ = failing.asDriver(onErrorRecover: { _ in numbers })", "asDriver(onErrorRecover: handler) is catch(handler).deliverOnMainThread() here"),
        .message("_ = numbers.asDriver()", "asDriver() is deliverOnMainThread() here"),
        .message("_ = numbers.drive(onNext: { print($0) })", "drive(onNext:) is subscribeNextOnMainActor(_:) here"),
        .message("_ = numbers.drive { print($0) }", "drive(onNext:) is subscribeNextOnMainActor(_:) here"),
        .message("_ = numbers.drive(onNext: { _ in }, onCompleted: {}, onDisposed: {})", "onDisposed has no counterpart"),
        .message("_ = numbers.drive(subject)", "drive(observer) is deliverOnMainThread().subscribe(subject) here"),
        .renamed("_ = Signal<Int, Never>.just(1)", to: "return(_:)"),
        .message("_ = Signal<Int, Never>.of(1, 2, 3)", "LazyList([a, b, c]).signal() (module Sequences)"),
        .message("_ = Signal<Int, Never>.from([1, 2, 3])", "LazyList(elements).signal() (module Sequences)"),
        // A static method renamed to an initializer: the compiler says "replaced by".
        Spelling(
            code: "_ = Signal<Int, Never>.create { subscriber in subscriber.sendNext(1); return nil }",
            expected: ["has been replaced by 'init(_:)'", "write Signal { subscriber in … }"]
        ),
        .renamed("_ = Signal<Int, Never>.deferred { other }", to: "defer(_:)"),
        .renamed("_ = Signal<Date, Never>.interval(1, scheduler: scheduler)", to: "interval(_:on:leeway:)"),
        .renamed("_ = Signal<Date, Never>.interval(.seconds(1), scheduler: scheduler)", to: "interval(_:on:leeway:)"),
        .renamed("input.onNext(1)", to: "sendNext(_:)"),
        .renamed("failingInput.onError(CancellationError())", to: "sendError(_:)"),
        .renamed("subject.onCompleted()", to: "sendCompleted()"),
        .message("input.on(.next(1))", "on(.next(value)) is sendNext(value) here"),
        .message("_ = numbers.publish().refCount()", "publish().refCount() is share() here, on the signal itself"),
        .message("_ = numbers.replay(1)", "RxSwift's replay(n) is multicast(ReplaySubject(capacity: n)) here"),
        .message("_ = numbers.replayAll()", "RxSwift's replayAll() is multicast(ReplaySubject()) here"),
        .message("_ = numbers.share(replay: 1, scope: .whileConnected)", "share(replay:) here is RxSwift's scope .whileConnected"),
        .message("_ = numbers.share(replay: 1, scope: .forever)", "for .forever, replayLazily()"),
        .message("_ = numbers.multicast(makeSubject: { Subject<Int, Never>() })", "a subject for each connection is share() here"),
        .message("_ = numbers.publish().subscribe(next: { print($0) })", "subscribe to its signal, connection.signal.subscribe(next:)"),
        .message("_ = Signal<Int, Never>.interval(.milliseconds(10), scheduler: scheduler)", "add .scan(-1) { count, _ in count + 1 }"),
        .message("_ = Signal<Int, Never>.interval(0.01, scheduler: scheduler)", "sends each tick's date, a Signal<Date, Never>"),
        .message("_ = ReplaySubject<Int, Never>.create(bufferSize: 1)", "ReplaySubject.create(bufferSize: n) is ReplaySubject<Element, any Error>(capacity: n)"),
        .message("testScheduler.scheduleAt(200) { print(1) }", "schedule(after: scheduler.clockStart.addingTimeInterval(time))"),
        .renamed("_ = numbers.observe(on: scheduler)", to: "deliver(on:)"),
        .message("Disposable {}.disposed(by: bag)", "add it to a CompoundDisposable: bag.add(disposable)"),
        // RxTest's, on its TestScheduler.
        .message("_ = testScheduler.createObserver(Int.self)", "start(created:subscribed:disposed:_:) or record(_:) subscribe a signal"),
        .renamed("_ = testScheduler.createHotObservable([Recorded<Int, Never>.next(210, 1)])", to: "createHotSignal(_:)"),
        .renamed("_ = testScheduler.createColdObservable([Recorded<Int, Never>.next(10, 1), .completed(20)])", to: "createColdSignal(_:)"),
        .renamed("testScheduler.start()", to: "run()"),
    ]

    private static let combine: [Spelling] = [
        .renamed("_ = numbers.combineLatest(other)", to: "combineLatest(with:)"),
        .message("_ = numbers.combineLatest(other, other)", "a.combineLatest(b, c) is Signal.combineLatest(a, b, c) here"),
        .message("_ = numbers.combineLatest(other) { $0 + $1 }", "a.combineLatest(b) { x, y in … } is a.combineLatest(with: b).map { x, y in … } here"),
        .renamed("_ = numbers.collect(3)", to: "buffer(count:)"),
        .renamed("_ = numbers.debounce(for: 0.3, scheduler: scheduler)", to: "throttle(_:on:)"),
        .renamed("_ = numbers.debounce(for: .seconds(0.3), scheduler: scheduler)", to: "throttle(_:on:)"),
        Spelling(code: "_ = numbers.throttle(for: 0.3, scheduler: scheduler, latest: true)", expected: ["has been renamed to 'rateLimit(_:on:latest:)'", "Combine's throttle limits the rate"]),
        Spelling(code: "_ = numbers.throttle(for: .milliseconds(300), scheduler: scheduler, latest: false)", expected: ["has been renamed to 'rateLimit(_:on:latest:)'", "in seconds"]),
        .renamed("_ = numbers.delay(for: 0.3, scheduler: scheduler)", to: "delay(_:on:)"),
        .renamed("_ = numbers.delay(for: .seconds(1), scheduler: scheduler)", to: "delay(_:on:)"),
        .renamed("_ = numbers.receive(on: scheduler)", to: "deliver(on:)"),
        .renamed("_ = numbers.receive(on: DispatchQueue.main)", to: "deliver(on:)"),
        .renamed("_ = numbers.receive(on: RunLoop.main)", to: "deliver(on:)"),
        .renamed("_ = numbers.debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)", to: "throttle(_:on:)"),
        .renamed("_ = numbers.delay(for: .seconds(1), scheduler: RunLoop.main)", to: "delay(_:on:)"),
        .renamed("_ = numbers.removeDuplicates()", to: "distinctUntilChanged()"),
        .renamed("_ = numbers.removeDuplicates { $0 == $1 }", to: "distinctUntilChanged(by:)"),
        .renamed("_ = numbers.sink { print($0) }", to: "subscribe(next:)"),
        .renamed("_ = numbers.sink(receiveValue: { print($0) })", to: "subscribe(next:)"),
        .message(
            "_ = failing.sink(receiveCompletion: { completion in if case .failure(let error) = completion { print(error) } }, receiveValue: { print($0) })",
            "receiveCompletion is two closures, error for .failure and completed for .finished"
        ),
        .message(
            "_ = numbers.sink(receiveCompletion: { completion in switch completion { case .finished: break; case .failure: break } }, receiveValue: { _ in })",
            "receiveCompletion is two closures"
        ),
        .message("_ = numbers.handleEvents(receiveOutput: { print($0) })", "handleEvents(receiveOutput:) is doNext(_:)"),
        .message(
            "_ = numbers.handleEvents(receiveSubscription: { _ in }, receiveOutput: { _ in }, receiveCompletion: { _ in }, receiveCancel: {}, receiveRequest: { _ in })",
            "handleEvents(receiveOutput:) is doNext(_:)"
        ),
        .renamed("_ = numbers.prefix(2)", to: "take(_:)"),
        .renamed("_ = numbers.prefix(while: { $0 < 3 })", to: "take(while:)"),
        .renamed("_ = numbers.prefix(untilOutputFrom: other)", to: "take(until:)"),
        .renamed("_ = numbers.dropFirst()", to: "skip(_:)"),
        .renamed("_ = numbers.dropFirst(2)", to: "skip(_:)"),
        .renamed("_ = numbers.drop(while: { $0 < 3 })", to: "skip(while:)"),
        .renamed("_ = numbers.drop(untilOutputFrom: other)", to: "skip(until:)"),
        .message("_ = numbers.last()", "last() is take(last: 1) here"),
        .renamed("_ = numbers.ignoreOutput()", to: "ignoreValues()"),
        .message("_ = failing.replaceError(with: 0)", "replaceError(with: value) is catch(to: .return(value)) here"),
        .renamed("_ = numbers.merge(with: other)", to: "merge(_:)"),
        .renamed("_ = numbers.append(other)", to: "concat(_:)"),
        .message("_ = numbers.prepend(0)", "prepend(value) is startWith(value) here"),
        .message("_ = numbers.prepend(other)", "a.prepend(b) is b.concat(a) here"),
        .renamed("_ = numbers.reduce(0, +)", to: "aggregate(_:_:)"),
        .renamed("_ = numbers.reduce(0) { $0 + $1 }", to: "aggregate(_:_:)"),
        .renamed("_ = numbers.reduce(0) { running, value in running + value }", to: "aggregate(_:_:)"),
        .renamed("_ = numbers.allSatisfy { $0 > 0 }", to: "all(_:)"),
        .renamed("_ = numbers.contains(where: { $0 > 0 })", to: "any(_:)"),
        .message("_ = numbers.eraseToAnyPublisher()", "a Signal is already the one signal type"),
        .renamed("_ = numbers.setFailureType(to: CancellationError.self)", to: "promoteError(_:)"),
        .message("_ = numbers.makeConnectable()", "makeConnectable().autoconnect() is share() here"),
        .message("_ = numbers.makeConnectable().autoconnect()", "makeConnectable().autoconnect() is share() here"),
        .renamed("_ = numbers.multicast(subject: subject)", to: "multicast(_:)"),
        .renamed("_ = failing.timeout(.seconds(1), scheduler: DispatchQueue.main)", to: "timeout(_:on:)"),
        .renamed("_ = numbers.flatMap { _ in other }", to: "flattenMap(_:)"),
        .renamed("_ = numbers.withLatestFrom(other, resultSelector: { $0 + $1 })", to: "withLatestFrom(_:_:)"),
        .message("Disposable {}.store(in: bag)", "add it to a CompoundDisposable: bag.add(disposable)"),
    ]

    /// Spellings with no stub, and the error they draw, which must not name a package-level
    /// declaration: Combine's `send(_:)` (a stub named `send` would hide the C library's socket
    /// function inside subscriber types; the package's own `send(_:)` of a `Subscriber` was
    /// renamed, as it showed as "inaccessible"), RxSwift's `CompositeDisposable.count` (the
    /// package's own `count` of a `CompoundDisposable` was renamed for the same reason), and
    /// RxSwift's `empty()` (a method cannot share the name of the property `empty`).
    private static let unstubbed: [Spelling] = [
        Spelling(code: "input.send(1)", expected: ["has no member 'send'"]),
        Spelling(code: "subject.send(1)", expected: ["has no member 'send'"]),
        Spelling(code: "_ = bag.count", expected: ["has no member 'count'"]),
        Spelling(code: "_ = Signal<Int, Never>.empty()", expected: ["cannot call value of non-function type"]),
        // RxSwift's `reduce(_:accumulator:)`: a second stub would make `reduce(0) { … }`
        // ambiguous; the label error leads to the one stub, which renames.
        Spelling(code: "_ = numbers.reduce(0, accumulator: +)", expected: ["argument label 'accumulator:' in call"]),
        // RxSwift's `scan(into:accumulator:)`: the label error shows ours, `scan(into:_:)`, and
        // without the label the call is ours.
        Spelling(code: "_ = numbers.scan(into: 0, accumulator: { $0 += $1 })", expected: ["argument label", "accumulator:"]),
    ]

    func testPeerSpellings_drawTheErrorThatNamesOurs() throws {
        let spellings = Self.reactiveSwift + Self.rxSwift + Self.combine + Self.unstubbed
        // The header's lines, then one line per spelling.
        let firstLine = Self.header.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        let source = Self.header + "\n" + spellings.map { "    " + $0.code }.joined(separator: "\n") + "\n}\n"
        let result = try typecheck(source)
        XCTAssertFalse(result.succeeded, "the spellings type-checked without an error:\n\(result.output)")

        var errors = result.errors
        for (index, spelling) in spellings.enumerated() {
            let line = firstLine + index
            let found = errors.removeValue(forKey: line) ?? []
            if found.count != 1 || !spelling.expected.allSatisfy(found[0].contains) {
                XCTFail("""
                    `\(spelling.code)` should draw one error containing \(spelling.expected.map { "\"\($0)\"" }.joined(separator: " and ")); it drew \
                    \(found.isEmpty ? "none" : found.map { "\"\($0)\"" }.joined(separator: ", "))
                    """)
            }
        }
        for (line, messages) in errors.sorted(by: { $0.key < $1.key }) {
            XCTFail("line \(line), outside the spellings, drew \(messages)\n\(source)")
        }
        // No package-level declaration may show: a user could not use it.
        XCTAssertFalse(result.output.contains("inaccessible"), result.output)
        XCTAssertFalse(result.output.contains("'package'"), result.output)
    }

    /// The shapes that once misled a new user of this library now draw an error that says what to
    /// write instead, in the Swift 6 language mode: an `await` of `collect()` (the operator, not an
    /// async form), a blocking form in async code, a non-`Sendable` value through a crossing the
    /// user asks for, and RxSwift's and Combine's ways of keeping a subscription.
    func testAdoptionTraps_drawTheErrorsThatHelp() throws {
        let header = """
            import Disposables
            import Schedulers
            import Sequences
            import Signals
            import Subjects

            final class Unshared {}

            func traps(numbers: Signal<Int, Never>, unshared: Signal<Unshared, Never>, scheduler: Scheduler, bag: CompoundDisposable) async {
            """
        let traps: [Spelling] = [
            Spelling(code: "let all: [Int] = await numbers.collect()", expected: ["cannot convert value of type 'Signal<[Int], Never>'"]),
            Spelling(code: "_ = numbers.first()", expected: ["is unavailable from asynchronous contexts", "await firstValue()"]),
            Spelling(code: "_ = numbers.toArray()", expected: ["is unavailable from asynchronous contexts", "await allValues()"]),
            Spelling(code: "_ = unshared.deliver(on: scheduler)", expected: ["type 'Unshared' does not conform to the 'Sendable' protocol"]),
            Spelling(code: "_ = unshared.subscribe(on: scheduler)", expected: ["type 'Unshared' does not conform to the 'Sendable' protocol"]),
            Spelling(code: "_ = await unshared.allValues()", expected: ["type 'Unshared' does not conform to the 'Sendable' protocol"]),
            Spelling(code: "_ = ObservableValue(Unshared())", expected: ["type 'Unshared' does not conform to the 'Sendable' protocol"]),
            Spelling(code: "_ = LazyList([Unshared()]).signal(on: scheduler)", expected: ["type 'Unshared' does not conform to the 'Sendable' protocol"]),
            Spelling(code: "Disposable {}.disposed(by: bag)", expected: ["'disposed(by:)' is unavailable: add it to a CompoundDisposable"]),
            Spelling(code: "Disposable {}.store(in: bag)", expected: ["'store(in:)' is unavailable: add it to a CompoundDisposable"]),
        ]
        let firstLine = header.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        let source = header + "\n" + traps.map { "    " + $0.code }.joined(separator: "\n") + "\n}\n"
        let result = try typecheck(source)
        XCTAssertFalse(result.succeeded, "the traps type-checked without an error:\n\(result.output)")
        for (index, trap) in traps.enumerated() {
            let found = result.errors[firstLine + index] ?? []
            if !found.contains(where: { message in trap.expected.allSatisfy(message.contains) }) {
                XCTFail("`\(trap.code)` should draw an error containing \(trap.expected); it drew \(found)\n\(result.output)")
            }
        }
    }

    func testOurSpellings_stillResolveBesideTheStubs() throws {
        let source = """
            import Disposables
            import Foundation
            import Schedulers
            import Signals
            import Subjects

            extension Signal {
                // A user's extension calls the global functions unqualified: no stub may hide
                // them. (Not `zip`: the real `zip(with:)` and `Signal.zip(_:)` already hide the
                // global one here, as any member of that base name would.)
                func userHelper() -> Int {
                    print("x")
                    debugPrint("y")
                    dump(0)
                    var a = 1, b = 2
                    swap(&a, &b)
                    let pairs = Swift.zip([1, 2], [3, 4]).map { $0 + $1 }
                    let steps = stride(from: 0, to: 10, by: 2).map { $0 }
                    let counting = Array(sequence(first: 1) { $0 < 3 ? $0 + 1 : nil })
                    return max(a, b) + min(a, b) + abs(-1) + pairs.count + steps.count + counting.count
                }
            }

            func ours(
                numbers: Signal<Int, Never>,
                other: Signal<Int, Never>,
                failing: Signal<Int, any Error>,
                nested: Signal<Signal<Int, Never>, Never>,
                optionals: Signal<Int?, Never>,
                scheduler: Scheduler,
                testScheduler: TestScheduler,
                input: Subscriber<Int, Never>,
                subject: Subject<Int, Never>
            ) {
                _ = testScheduler.start { numbers }
                _ = testScheduler.start(created: 0, subscribed: 0, disposed: 10) { numbers }
                _ = testScheduler.createHotSignal([Recorded<Int, Never>.next(210, 1)])
                _ = testScheduler.createColdSignal("-a|", values: ["a": 1])
                testScheduler.run()
                _ = numbers.subscribe()
                _ = numbers.subscribe { print($0) }
                _ = numbers.subscribe(next: { _ in }, error: { _ in }, completed: {})
                _ = numbers.subscribe(subject)
                _ = numbers.subscribeNext { print($0) }
                _ = numbers.subscribe(on: scheduler)
                _ = numbers.deliver(on: scheduler)
                _ = numbers.take(2)
                _ = numbers.take(last: 2)
                _ = numbers.take(while: { $0 < 3 })
                _ = numbers.take(until: other)
                _ = numbers.skip(1)
                _ = numbers.skip(while: { $0 < 3 })
                _ = numbers.skip(until: other)
                _ = numbers.throttle(0.3, on: scheduler)
                _ = numbers.throttle(0.3)
                _ = numbers.delay(0.3, on: scheduler)
                _ = numbers.delay(0.3)
                _ = failing.timeout(1, on: scheduler)
                _ = failing.timeout(1, on: scheduler, raising: CancellationError())
                _ = numbers.map { $0 * 2 }
                _ = numbers.flattenMap { _ in other }
                _ = nested.flatten()
                _ = nested.flatten(maxConcurrent: 2)
                _ = nested.concat()
                _ = nested.switchToLatest()
                _ = numbers.merge(other)
                _ = Signal.merge([numbers, other])
                _ = numbers.concat(other)
                _ = Signal.concat([numbers, other])
                _ = numbers.bind { { value, _ in Signal<Int, Never>.return(value) } }
                _ = numbers.catch { _ in .empty }
                _ = failing.catch { _ in numbers }
                _ = failing.catch(to: .return(0))
                _ = failing.retry()
                _ = failing.retry(2)
                _ = failing.retry(2, delay: .exponential(initial: 1), on: scheduler)
                _ = numbers.rateLimit(0.3, on: scheduler)
                _ = numbers.debug("numbers")
                _ = numbers.startWith(0)
                _ = numbers.replaceEmpty(with: 0)
                _ = numbers.sample(other)
                _ = numbers.distinctUntilChanged()
                _ = numbers.distinctUntilChanged(by: ==)
                _ = optionals.ignoreNil()
                _ = numbers.aggregate(0, +)
                _ = numbers.scan(0, +)
                _ = numbers.scan(into: 0) { $0 += $1 }
                _ = numbers.scan(into: [Int]()) { running, value in running.append(value) }
                _ = numbers.combinePrevious(0) { $1 - $0 }
                _ = numbers.combinePrevious(0, -)
                _ = numbers.combinePrevious(0)
                let pairs: Signal<(previous: Int, current: Int), Never> = numbers.combinePrevious(0)
                _ = pairs.map { $0.current - $0.previous }
                _ = numbers.combineLatest(with: other)
                _ = Signal.combineLatest(numbers, other)
                _ = Signal.combineLatest(numbers, other, numbers)
                _ = Signal.combineLatest(numbers, optionals.map { $0 ?? 0 > 0 })
                _ = Signal.combineLatest([numbers, other])
                let combined: Signal<(Int, Int), Never> = .combineLatest(numbers, other)
                _ = combined
                _ = failing.catch(to: Signal<Int, Never>.return(0)).deliverOnMainThread()
                _ = failing.catch { _ in numbers }.deliver(on: .main)
                _ = Property(initial: 0, then: failing.catch(to: .return(0))).signal.deliverOnMainThread()
                _ = numbers.all { $0 > 0 }
                _ = numbers.any { $0 > 0 }
                _ = numbers.collect()
                _ = numbers.logAll()
                _ = numbers.doNext { print($0) }
                _ = numbers.then { other }
                _ = numbers.ignoreValues()
                _ = numbers.promoteError(CancellationError.self)
                _ = numbers.publish().autoconnect()
                _ = numbers.multicast(subject).connect()
                _ = numbers.replayLazily()
                // RxSwift's and Combine's spellings, which are ours too.
                _ = numbers.share()
                _ = numbers.share(replay: 1)
                _ = Signal<Int, Never>.return(1)
                _ = Signal<Int, Never>.empty
                _ = Signal<Int, Never>.never
                _ = Signal<Int, any Error>.error(CancellationError())
                _ = Signal<Int, Never>.defer { other }
                _ = Signal<Int, Never> { subscriber in
                    subscriber.sendNext(1)
                    return nil
                }
                _ = Signal<Date, Never>.interval(1, on: scheduler)
                input.sendNext(1)
                subject.sendNext(1)
                subject.sendCompleted()
            }
            """
        // Timed too: an overload a stub adds (the instance `combineLatest(_:)` beside the static
        // pack form) must not send the solver into a search that takes seconds. Each of these
        // expressions takes a few milliseconds; the limit is far above that, for loaded machines.
        let result = try typecheck(source, extraArguments: ["-Xfrontend", "-warn-long-expression-type-checking=2000"])
        XCTAssertTrue(result.succeeded, "our own calls no longer type-check:\n\(result.output)")
        XCTAssertFalse(result.output.contains("to type-check"), "an expression took more than 2 s to type-check:\n\(result.output)")
    }

    // MARK: - Running the compiler

    private struct Typecheck {
        var succeeded: Bool
        /// The compiler's standard error.
        var output: String
        /// The messages of the errors reported in the checked file, by line.
        var errors: [Int: [String]]
    }

    /// Type-checks `source` as a file of a user's module, outside this package, against the
    /// modules of the running build (TestSupport's `TypeCheck`).
    private func typecheck(_ source: String, extraArguments: [String] = []) throws -> Typecheck {
        let outcome = try TypeCheck.run(source: source, fileName: "Spellings.swift", extraArguments: extraArguments, anchor: OtherLibrariesNamesTests.self)
        XCTAssertFalse(outcome.timedOut, "swiftc did not finish in time")
        var errors: [Int: [String]] = [:]
        for error in outcome.errors(inFileNamed: "Spellings.swift") {
            errors[error.line, default: []].append(error.message)
        }
        return Typecheck(succeeded: outcome.succeeded, output: outcome.output, errors: errors)
    }
}
