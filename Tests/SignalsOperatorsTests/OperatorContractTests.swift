import Disposables
import Schedulers
import Signals
import TestSupport
import XCTest

/// The contract every one-input operator keeps, checked for each row of `operators`: a row
/// applies one operator to a `Signal<Int, TestError>` and returns a `Signal<Int, TestError>`, and
///
/// - passes the values 1, 2, 3 and completion through unchanged, synchronously, in the
///   subscribing call: from a cold source that sends 1, 2, 3 then completes, exactly
///   `[.next(1), .next(2), .next(3), .completed]`. An operator that adds, drops or changes values
///   is applied in a form that undoes it (`startWith(0).skip(1)`; `map { $0 > 1 }.not()` then a
///   `scan` that counts the values, 1, 2, 3; a timed one with a scheduler on which it need not
///   wait: `Scheduler.immediate`, or a `TestScheduler` that never moves);
/// - passes an error through: `[.error(.first)]` from a source that only fails, and
///   `[.next(1), .error(.second)]` from one that sends 1 then fails;
/// - completes an empty source: `[.completed]`;
/// - once its subscriber is disposed after the first value, disposes its source exactly once and
///   sends nothing more (the source's later 2 and completion do not arrive);
/// - keeps nothing of the chain alive, closures included, once the source has completed (the
///   signal the row made is gone too), or once the subscription is disposed (each row's closures
///   capture the `LifetimeToken` they are given, so that the check sees them);
/// - reports its subscription disposed once it has ended: completed synchronously, completed
///   later, or failed;
/// - stops at once when its subscriber disposes the subscription inside a value's callback: no
///   later value or completion reaches it;
/// - joins its subscriber's disposable before the first value, so that disposing inside that
///   value stops a source that resubscribes synchronously (`repeat()` of a source that sends 1
///   and completes) after one subscription;
/// - names the signal it makes after its source when `SignalDebug` is on (`[source] -map:`, from
///   `.named(derivedName("-map:"))`), one name layer per operator the row applies, but for the
///   operators of `keepsTheSourceName`.
///
/// OperatorContractCoverageTests (in SignalsTests) fails for a public one-input operator of
/// `Signal` that no row calls and that its `exempt` list does not give a reason for.
final class OperatorContractTests: LeakCheckedTestCase {
    override class func setUp() {
        super.setUp()
        // Made outside any test's leak check: the live input of its lifetime's pipe counts as a
        // subscription for as long as it lives, which is as long as the tests.
        _ = contractLifetime
    }

    override func setUp() {
        super.setUp()
        // The log operators' rows write a line per event: kept out of the test output.
        SignalLog.sink = { _ in }
    }

    override func tearDown() {
        SignalLog.sink = SignalLog.standardError
        super.tearDown()
    }

    /// Each operator, applied so that it passes the values 1, 2, 3 on (for the first value on).
    private let operators: [(name: String, apply: @Sendable (Signal<Int, TestError>, LifetimeToken) -> Signal<Int, TestError>)] = [
        ("map", { signal, token in signal.map { _ = token; return $0 } }),
        ("filter", { signal, token in signal.filter { _ = token; return $0 > 0 } }),
        ("ignore", { signal, _ in signal.ignore(-1) }),
        ("skip", { signal, _ in signal.startWith(0).skip(1) }),
        ("skip(while:)", { signal, token in signal.skip(while: { _ = token; return $0 < 1 }) }),
        ("skip(untilTrue:)", { signal, token in signal.skip(untilTrue: { _ = token; return $0 >= 1 }) }),
        ("take", { signal, _ in signal.take(100) }),
        ("take(while:)", { signal, token in signal.take(while: { _ = token; return $0 < 100 }) }),
        ("take(untilTrue:)", { signal, token in signal.take(untilTrue: { _ = token; return $0 >= 100 }) }),
        ("scan", { signal, token in signal.scan(0) { _, value in _ = token; return value } }),
        ("combinePrevious", { signal, token in signal.combinePrevious(0) { _, value in _ = token; return value } }),
        ("scan(into:)", { signal, token in signal.scan(into: 0) { running, value in _ = token; running = value } }),
        ("combinePrevious(_:)", { signal, token in signal.combinePrevious(0).map { _ = token; return $0.current } }),
        ("distinctUntilChanged", { signal, token in signal.distinctUntilChanged { _, _ in _ = token; return false } }),
        ("startWith", { signal, _ in signal.startWith(1).skip(1) }),
        ("flattenMap", { signal, token in signal.flattenMap { _ = token; return .return($0) } }),
        ("bind", { signal, token in signal.bind { { value, _ in _ = token; return .return(value) } } }),
        ("concat", { signal, _ in signal.concat(.empty) }),
        ("merge", { signal, _ in signal.merge(.empty) }),
        ("switchToLatest", { signal, token in signal.map { _ = token; return Signal<Int, TestError>.return($0) }.switchToLatest() }),
        ("flatten(maxConcurrent: 1)", { signal, token in signal.map { _ = token; return Signal<Int, TestError>.return($0) }.flatten(maxConcurrent: 1) }),
        ("zip", { signal, _ in Signal.zip([signal]).map { $0[0] } }),
        ("materialize().dematerialize()", { signal, token in signal.map { _ = token; return $0 }.materialize().dematerialize() }),
        ("reduceApply", { signal, token in
            let identity: @Sendable (Int) -> Int = { _ = token; return $0 }
            return signal.map { (identity, $0) }.reduceApply()
        }),
        ("doNext", { signal, token in signal.doNext { _ in _ = token } }),
        ("doError", { signal, token in signal.doError { _ in _ = token } }),
        ("doCompleted", { signal, token in signal.doCompleted { _ = token } }),
        ("initially", { signal, token in signal.initially { _ = token } }),
        ("debug", { signal, token in signal.debug("contract", to: { _ in _ = token }) }),
        ("finally", { signal, token in signal.finally { _ = token } }),
        ("throttle(_:on:valuesPassing:)", { signal, token in signal.throttle(1, on: TestScheduler(), valuesPassing: { _ in _ = token; return false }) }),
        ("delay(_:on:)", { signal, _ in signal.delay(0, on: Scheduler.immediate) }),
        ("timeout(_:on:raising:)", { signal, _ in signal.timeout(60, on: TestScheduler(), raising: .second) }),
        ("deliver(on:)", { signal, _ in signal.deliver(on: Scheduler.immediate) }),
        ("deliverOnMainThread", { signal, _ in signal.deliverOnMainThread() }),
        ("subscribe(on:)", { signal, _ in signal.subscribe(on: Scheduler.immediate) }),
        ("combineLatest", { signal, _ in Signal.combineLatest([signal]).map { $0[0] } }),
        ("take(until:)", { signal, _ in signal.take(until: Signal<Int, Never>.never) }),
        ("take(during:)", { signal, _ in signal.take(during: contractLifetime.lifetime) }),
        ("skip(until:)", { signal, token in signal.skip(until: Signal<Void, Never>.empty.map { _ = token }) }),
        ("ignoreNil", { signal, token in signal.map { _ = token; return Optional($0) }.ignoreNil() }),
        ("compactMap", { signal, token in signal.compactMap { _ = token; return Optional($0) } }),
        ("withLatestFrom", { signal, token in signal.withLatestFrom(Signal<Int, TestError>.return(0)) { value, _ in _ = token; return value } }),
        ("flatMapLatest", { signal, token in signal.flatMapLatest { _ = token; return .return($0) } }),
        ("buffer(count:)", { signal, token in signal.buffer(count: 1).map { _ = token; return $0[0] } }),
        ("buffer(count:interval:on:)", { signal, token in signal.buffer(count: 1, interval: 1, on: TestScheduler()).map { _ = token; return $0[0] } }),
        ("catch", { signal, token in signal.catch { _ = token; return .error($0) } }),
        ("try", { signal, token in signal.try { _ in _ = token } }),
        ("tryMap", { signal, token in signal.tryMap { _ = token; return $0 } }),
        ("mapError", { signal, token in signal.mapError { _ = token; return $0 } }),
        ("distinctUntilChanged()", { signal, _ in signal.distinctUntilChanged() }),
        ("withLatestFrom(_:)", { signal, token in signal.withLatestFrom(Signal<Int, TestError>.return(0)).map { _ = token; return $0.0 } }),
        ("flatten()", { signal, token in signal.map { _ = token; return Signal<Int, TestError>.return($0) }.flatten() }),
        ("concat()", { signal, token in signal.map { _ = token; return Signal<Int, TestError>.return($0) }.concat() }),
        // Operators that change the values, then a scan that counts them: 1, 2, 3 again.
        ("mapReplace", { signal, token in signal.mapReplace(0).scan(0) { count, _ in _ = token; return count + 1 } }),
        ("not", { signal, token in signal.map { $0 > 1 }.not().scan(0) { count, _ in _ = token; return count + 1 } }),
        ("and", { signal, token in signal.map { [$0 > 1, true] }.and().scan(0) { count, _ in _ = token; return count + 1 } }),
        ("or", { signal, token in signal.map { [$0 > 1, false] }.or().scan(0) { count, _ in _ = token; return count + 1 } }),
        ("reduceEach", { signal, token in signal.map { ($0, 0) }.reduceEach { value, _ in _ = token; return value } }),
        // An operator that adds a value to an empty source, then a filter that takes it back out.
        ("replaceEmpty", { signal, token in signal.replaceEmpty(with: 0).filter { _ = token; return $0 != 0 } }),
        // Errors made `any Error` or events, and back: the error still passes through.
        ("promoteError", { signal, token in signal.map { _ = token; return $0 }.materialize().promoteError(TestError.self).dematerialize() }),
        ("timeout(_:on:)", { signal, token in
            signal.mapError { error -> any Error in _ = token; return error }
                .timeout(60, on: TestScheduler())
                .mapError { ($0 as? TestError) ?? .second }
        }),
        ("throttle(_:valuesPassing:)", { signal, token in signal.throttle(1, valuesPassing: { _ in _ = token; return false }) }),
        ("logAll", { signal, _ in signal.logAll() }),
        ("logNext", { signal, _ in signal.logNext() }),
        ("logError", { signal, _ in signal.logError() }),
        ("logCompleted", { signal, _ in signal.logCompleted() }),
    ]

    func testEveryOperator_passesValuesAndCompletion() {
        for (name, apply) in operators {
            let recorder = apply(TestSource([1, 2, 3]).signal, LifetimeToken()).record()
            XCTAssertEqual(recorder.events, [.next(1), .next(2), .next(3), .completed], name)
        }
    }

    func testEveryOperator_errorAtTheStart() {
        for (name, apply) in operators {
            let recorder = apply(TestSource<Int>([], end: .error(.first)).signal, LifetimeToken()).record()
            XCTAssertEqual(recorder.events, [.error(.first)], name)
        }
    }

    func testEveryOperator_errorInTheMiddle() {
        for (name, apply) in operators {
            let recorder = apply(TestSource([1], end: .error(.second)).signal, LifetimeToken()).record()
            XCTAssertEqual(recorder.events, [.next(1), .error(.second)], name)
        }
    }

    func testEveryOperator_emptySource() {
        for (name, apply) in operators {
            XCTAssertEqual(apply(TestSource<Int>([]).signal, LifetimeToken()).record().events, [.completed], name)
        }
    }

    func testEveryOperator_disposalMidStreamDisposesTheSourceAndStopsDelivery() {
        for (name, apply) in operators {
            let source = DrivenSource<TestError>()
            let recorder = apply(source.signal, LifetimeToken()).record()
            source.input.sendNext(1)
            recorder.dispose()
            source.input.sendNext(2)
            source.input.sendCompleted()
            XCTAssertEqual(recorder.events, [.next(1)], name)
            XCTAssertEqual(source.disposals.value, 1, name)
        }
    }

    func testEveryOperator_releasesTheChainAfterCompletion() {
        for (name, apply) in operators {
            weak var weakSignal: Signal<Int, TestError>?
            let (recorder, token) = trackingLifetime { token -> EventRecorder<Int, TestError> in
                let signal = apply(TestSource([1]).signal, token)
                weakSignal = signal
                return signal.record()
            }
            XCTAssertEqual(recorder.values, [1], name)
            XCTAssertNil(weakSignal, name)
            XCTAssertFalse(token.isAlive, name)
        }
    }

    func testEveryOperator_releasesTheChainAfterDisposal() {
        for (name, apply) in operators {
            let (pipe, input) = Signal<Int, TestError>.pipe()
            let (recorder, token) = trackingLifetime { token in apply(pipe, token).record() }
            input.sendNext(1)
            recorder.dispose()
            XCTAssertFalse(token.isAlive, name)
            _ = input
        }
    }

    func testEveryOperator_subscriptionReportsDisposedOnceEnded() {
        for (name, apply) in operators {
            XCTAssertTrue(apply(TestSource([1]).signal, LifetimeToken()).subscribe().isDisposed, "\(name), completed")
            let (pipe, input) = Signal<Int, TestError>.pipe()
            let completed = apply(pipe, LifetimeToken()).subscribe()
            input.sendNext(1)
            input.sendCompleted()
            XCTAssertTrue(completed.isDisposed, "\(name), completed later")
            let (failing, failingInput) = Signal<Int, TestError>.pipe()
            let failed = apply(failing, LifetimeToken()).subscribe()
            failingInput.sendError(.first)
            XCTAssertTrue(failed.isDisposed, "\(name), failed")
        }
    }

    func testEveryOperator_disposingInsideACallbackStopsEverythingAfterIt() {
        for (name, apply) in operators {
            let (pipe, input) = Signal<Int, TestError>.pipe()
            let recorder = Recorder<Event<Int, TestError>>()
            let box = DisposableBox()
            box.disposable = apply(pipe, LifetimeToken()).subscribe(next: { value in
                recorder.record(.next(value))
                box.disposable?.dispose()
            }, error: { recorder.record(.error($0)) }, completed: { recorder.record(.completed) })
            input.sendNext(1)
            input.sendNext(2)
            input.sendCompleted()
            XCTAssertEqual(recorder.values, [.next(1)], name)
            XCTAssertTrue(box.disposable?.isDisposed ?? false, name)
        }
    }

    func testEveryOperator_disposingInsideTheFirstValueStopsARepeatingSynchronousSource() {
        // The source subscribes again inside the subscribing call, so the operator's subscription
        // to it must join the subscriber's disposable before the first value, not when it returns
        // (which, for a loop nothing stops, it never does).
        for (name, apply) in operators {
            let source = SelfLimitingSource()
            let values = Counter()
            let subscription = apply(source.signal.repeat(), LifetimeToken()).subscribeDisposingInFirstValue(counting: values)
            XCTAssertEqual(values.value, 1, name)
            XCTAssertEqual(source.subscriptions.value, 1, name)
            XCTAssertTrue(subscription.isDisposed, name)
        }
    }

    /// The rows whose operator keeps its source's name instead of deriving one, on purpose: RAC
    /// 2.5's log operators name what they make as the source (`setNameWithFormat:@"%@",
    /// self.name`), so that a log line reads the name the user gave (LogTests checks it). Their
    /// row is the operator alone, and the name must be the source's.
    static let keepsTheSourceName: Set<String> = ["logAll", "logNext", "logError", "logCompleted"]

    /// Every row's operators name what they make after their source, as RAC 2.5 does
    /// (`.named(derivedName("-selector:"))`): with `SignalDebug` on, a row applied to a signal
    /// named `source` makes one named `[…[source] -a…] -b…`, one layer per operator the row
    /// applies to the source (read from this file: the calls on a value at the top level of the
    /// row's expression, so `signal.map { … }.switchToLatest()` is two), each layer's selector a
    /// `-` and a name. A row built from a multi-input constructor (`Signal.zip([signal])`) ends in
    /// its `+selector` (`+zip:`) instead of `source`.
    func testEveryOperator_namesItsSignalAfterItsSource() throws {
        let chains = try Self.rowChains()
        XCTAssertEqual(chains.map(\.name), operators.map(\.name), "the rows read from OperatorContractTests.swift are not the rows of `operators`")
        // The parser must count what it is meant to.
        let counts = Dictionary(chains.map { ($0.name, $0.operators) }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(counts["map"], ["map"])
        XCTAssertEqual(counts["switchToLatest"], ["map", "switchToLatest"])
        XCTAssertEqual(counts["skip(until:)"], ["skip"])
        XCTAssertEqual(counts["zip"], ["map"])
        XCTAssertEqual(counts["reduceApply"], ["map", "reduceApply"])

        let wasEnabled = SignalDebug.isEnabled
        SignalDebug.isEnabled = true
        defer { SignalDebug.isEnabled = wasEnabled }
        for ((name, apply), chain) in zip(operators, chains) {
            let source = TestSource<Int>([]).signal.named("source")
            let made = apply(source, LifetimeToken()).name
            if Self.keepsTheSourceName.contains(name) {
                XCTAssertEqual(made, "source", "\(name) keeps its source's name (OperatorContractTests.keepsTheSourceName)")
                continue
            }
            let layers = made.map(Self.nameLayers)
            let wellFormed = layers.map { layers in
                layers.selectors.allSatisfy { $0.hasPrefix("-") && ($0.dropFirst().first?.isLetter ?? false) }
                    && (layers.innermost == "source" || layers.innermost.hasPrefix("+"))
            } ?? false
            if made == nil || made == "source" || !wellFormed || layers?.selectors.count != chain.operators.count {
                XCTFail("""
                    row \(name): with SignalDebug on, the signal it makes from one named "source" is named \
                    \(made.map { "\"\($0)\"" } ?? "nil"); it should have one layer `[…] -selector` per operator the row \
                    applies (\(chain.operators.count): \(chain.operators.joined(separator: ", "))) down to "source": an \
                    operator of the row does not name its signal with `.named(derivedName("-selector:"))` (or, if it keeps \
                    its source's name on purpose, add the row to OperatorContractTests.keepsTheSourceName with the reason); \
                    its operators are declared at \(Self.declarations(of: chain.operators).joined(separator: ", "))
                    """)
            }
        }
    }

    /// A row of `operators` as written: its name, and the operators its expression applies in
    /// turn (the calls on a value at its top level, not those inside arguments or closures).
    private struct RowChain {
        let name: String
        let operators: [String]
    }

    /// The rows of `operators`, read from this file.
    private static func rowChains() throws -> [RowChain] {
        let raw = Array(try String(contentsOfFile: #filePath, encoding: .utf8))
        let code = SourceText.masked(String(raw))
        let list = try XCTUnwrap(SourceText.arrayLiteral(assignedTo: "operators", in: code), "no `let operators = [...]` in \(#filePath)")
        return try SourceText.elements(of: list, in: code).map { element in
            // `("name", { signal, token in … })`
            let tuple = element.lowerBound..<element.upperBound
            let parts = SourceText.elements(of: tuple, in: code)
            let nameStart = try XCTUnwrap(parts.first?.lowerBound)
            let name = try XCTUnwrap(SourceText.stringLiteral(at: nameStart, in: raw), "a row without a name at \(String(code[element]))")
            let closure = try XCTUnwrap(parts.last)
            let body = Array(code[(closure.lowerBound + 1)..<(closure.upperBound - 1)])
            // After the parameters' `in`.
            let inOffset = try XCTUnwrap(body.indices.first { offset in
                offset > 0 && body[offset - 1] == " " && body[offset] == "i" && offset + 2 < body.count
                    && body[offset + 1] == "n" && body[offset + 2].isWhitespace
            }, "a row whose closure has no `in`: \(name)")
            let statement = SourceText.lastStatement(of: Array(body[(inOffset + 2)...]))
            let depths = SourceText.depths(in: statement)
            let calls = Call.all(inCode: statement, initializerTypes: [])
                .filter { $0.receiver == .value && $0.labels != nil && depths[$0.offset] == 0 }
            return RowChain(name: name, operators: calls.map(\.name))
        }
    }

    /// Where module Signals declares the instance methods of `Signal` named `names`
    /// (`Sources/Signals/Operators/Map.swift:9`), for a failure to point at.
    private static func declarations(of names: [String]) -> [String] {
        let members = PackageSource.swiftFiles(at: "Sources/Signals").flatMap { file in
            ((try? String(contentsOf: file, encoding: .utf8)).map { PublicMember.declared(in: $0, file: PackageSource.relativePath(of: file)) }) ?? []
        }
        return names.flatMap { name in
            members.filter { $0.type == "Signal" && $0.name == name && !$0.isStatic }.map { "\($0.signature) \($0.location)" }
        }
    }

    /// The layers of a name that operators derived (`[[source] -map:] -take: 2`): the selectors
    /// from the innermost out (`-map:`, `-take: 2`), and what is left inside them (`source`).
    static func nameLayers(_ name: String) -> (selectors: [String], innermost: String) {
        var current = Substring(name)
        var selectors: [String] = []
        while current.hasPrefix("[") {
            var depth = 0
            var close: Substring.Index?
            for index in current.indices {
                if current[index] == "[" { depth += 1 }
                if current[index] == "]" {
                    depth -= 1
                    if depth == 0 { close = index; break }
                }
            }
            guard let close, current[current.index(after: close)...].hasPrefix(" ") else { break }
            selectors.insert(String(current[current.index(close, offsetBy: 2)...]), at: 0)
            current = current[current.index(after: current.startIndex)..<close]
        }
        return (selectors, String(current))
    }
}

/// A lifetime that lasts as long as the tests: its token is never released.
private let contractLifetime = Lifetime.make()
