import Disposables
import Foundation
import Schedulers
import Sequences
import Signals
import Subjects
import TestSupport
import Observation
import Tuples
import XCTest

/// An `@Observable` model for the Observation bridge's checks.
@Observable
private final class CatalogModel {
    var value = 0
}

// The catalog of the library's checks of bad input: every call of `checkInput`, `badInput`, the
// checks built on them (`checkDate`, `checkDelay`, `checkRepetition` in Schedulers/TimeInput.swift;
// `checkInterval`, `checkPositiveInterval`, `checkScheduler` in Signals/Operators/Scheduling.swift;
// `Nesting.checkStack` in Sequences; the stack checks of signal chains, lifetimes and property
// chains, on `StackCheck`) and Tuples' own `check` is triggered here, each in a child
// process (`expectStop`), and must stop the program with a message that names the operator and the
// value it refused. The catalog runs in debug and release builds (`-enable-testing`), where a
// `precondition`'s message would be gone.
//
// Some checks have tests of their own too, beside the behaviour they guard (TimeInputTests,
// TimeOperatorRuleTests, BufferTests, the Disposables' BadInputTests); they are listed here again,
// so that this file is the one list.
//
// Not triggerable from outside, so not triggered here (each guards an invariant of the library's
// own code, not the user's input):
// - `pthread_key_create` failing: Disposables/ThreadLocalKey.swift (the one key type of the
//   trampoline's frames, the stack limits, the delivery contexts and the lazy lists' teardown)
//   and Schedulers/ThreadLocal.swift. The system refuses a key only to a process that already holds PTHREAD_KEYS_MAX of them (1024 on
//   Linux, 512 on Apple platforms), and the library makes each of these once per process, in a
//   static; no argument of the user's reaches them.
// - Schedulers/MinHeap.swift `removeFirst()` on an empty heap: the heap is internal, and its
//   callers (DatedQueue, TestScheduler) look at `first` before they remove it.
// - Command/CommandState.swift "an execution ended that had not begun": the command pairs each
//   end with its own begin; no public API ends an execution.
// - Signals/Signal.swift "must override Signal.attachSink(_:) or pass a producer": the initializer
//   without a producer is `package`, for the library's own subclasses, which all override.
// - Signals/ForwardingSink.swift and Signals/Delivery/SubscriberGate.swift "a value sent
//   (delivered) as a terminal event", Delivery/Broadcast.swift "a failure of another type than its
//   signal's", Delivery/Junction.swift "the subscription was handed over twice",
//   Delivery/Rows.swift "RowMaker is abstract": states of the delivery machinery that its types
//   rule out for every caller; the public API hands it only events of the signal's own types.
// - Subjects/Property.swift "read during its own deinit": a property's storage is taken out by its
//   deinit only, when nothing can read it any more.
// - Signals/OtherLibraries/ReactiveSwift.swift "an unavailable stub was called": the body of the
//   stubs that name our operators to users of other libraries; they are unavailable, so no code
//   can call them.
final class BadInputCatalogTests: LeakCheckedTestCase {
    /// Each case must stop the program with a message containing its `message`.
    private func assertStops(
        _ cases: [(name: String, message: String, body: () -> Void)],
        function: String = #function,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(Set(cases.map(\.name)).count, cases.count, "case names must be unique", file: file, line: line)
        for stop in cases {
            if let failure = expectStop(stop.name, in: self, messageContains: stop.message, function: function, stop.body) {
                XCTFail(failure, file: file, line: line)
            }
        }
    }

    // MARK: Tuples, Sequences

    func testTuplesAndLazyLists() {
        assertStops([
            ("Tuple subscript", "Tuple subscript: index 2 is out of range for a tuple of 2 values", { _ = Tuple(1, 2)[2] }),
            ("Tuple subscript, negative", "Tuple subscript: index -1 is out of range for a tuple of 0 values", { _ = Tuple()[-1] }),
            ("LazyList.skip", "LazyList.skip(_:) needs a count of zero or more, got -1", { _ = LazyList(0..<3).skip(-1) }),
            ("LazyList.take", "LazyList.take(_:) needs a count of zero or more, got -2", { _ = LazyList(0..<3).take(-2) }),
            ("an operator's block pulls its own list", "LazyList: an operator's block pulled the very list it is computing", {
                let box = ListBox()
                box.list = LazyList(0..<3).map { _ in box.list!.head! }
                _ = box.list!.head
            }),
            ("a head block pulls its own head", "LazyList: a head or tail block pulled the very part of its list it is computing", {
                let box = ListBox()
                box.list = LazyList(head: { box.list!.head! }, tail: { .empty })
                _ = box.list!.head
            }),
            ("LazyList.and of an empty array", "and() needs at least one value in each array, got []", { _ = LazyList([[Bool]()]).and().head }),
            ("LazyList.or of a tuple with a hole", "or() needs a tuple of Bools, got ", { _ = LazyList([Tuple(false, nil)]).or().head }),
            ("blocks nest deeper than the stack", "LazyList: evaluating LazyList(head:tail:) nests more deeply than this thread's stack allows", {
                onAPlainThread(stackSize: 256 * 1024) { _ = headsPullingHeads(1_000_000).head }
            }),
        ])
    }

    // MARK: Schedulers

    func testSchedulers() {
        let nan = Date(timeIntervalSinceReferenceDate: .nan)
        let nanDate = "got Date(timeIntervalSinceReferenceDate: nan)"
        let queue = "QueueScheduler.schedule(after:repeatingEvery:leeway:_:)"
        let actor = "ActorScheduler.schedule(after:repeatingEvery:leeway:_:)"
        let test = "TestScheduler.schedule(after:repeatingEvery:leeway:_:)"
        assertStops([
            // checkDate
            ("immediate date", "Scheduler.immediate.schedule(after:_:) needs a date that is a number, \(nanDate)", { Scheduler.immediate.schedule(after: nan) {} }),
            ("queue date", "QueueScheduler.schedule(after:_:) needs a date that is a number, \(nanDate)", { QueueScheduler(name: "q").schedule(after: nan) {} }),
            ("queue repeating date", "\(queue) needs a date that is a number, \(nanDate)", { QueueScheduler(name: "q").schedule(after: nan, repeatingEvery: 1) {} }),
            ("actor date", "ActorScheduler.schedule(after:_:) needs a date that is a number, \(nanDate)", { ActorScheduler(Idle()).schedule(after: nan) {} }),
            ("actor repeating date", "\(actor) needs a date that is a number, \(nanDate)", { ActorScheduler(Idle()).schedule(after: nan, repeatingEvery: 1) {} }),
            ("test date", "TestScheduler.schedule(after:_:) needs a date that is a number, \(nanDate)", { TestScheduler().schedule(after: nan) {} }),
            ("test repeating date", "\(test) needs a date that is a number, \(nanDate)", { TestScheduler().schedule(after: nan, repeatingEvery: 1) {} }),
            // checkDelay
            ("immediate delay", "Scheduler.immediate.schedule(afterDelay:_:) needs a delay that is a number, got nan", { Scheduler.immediate.schedule(afterDelay: .nan) {} }),
            ("queue delay", "QueueScheduler.schedule(afterDelay:_:) needs a delay that is a number, got nan", { QueueScheduler(name: "q").schedule(afterDelay: .nan) {} }),
            ("actor delay", "ActorScheduler.schedule(afterDelay:_:) needs a delay that is a number, got nan", { ActorScheduler(Idle()).schedule(afterDelay: .nan) {} }),
            ("default delay", "TestScheduler.schedule(afterDelay:_:) needs a delay that is a number, got nan", { TestScheduler().schedule(afterDelay: .nan) {} }),
            // checkRepetition
            ("queue interval", "\(queue) needs a positive interval, got 0.0", { QueueScheduler(name: "q").schedule(after: Date(), repeatingEvery: 0) {} }),
            ("queue leeway", "\(queue) needs a leeway of zero or more, got -1.0", { QueueScheduler(name: "q").schedule(after: Date(), repeatingEvery: 1, leeway: -1) {} }),
            ("actor interval", "\(actor) needs a positive interval, got nan", { ActorScheduler(Idle()).schedule(after: Date(), repeatingEvery: .nan) {} }),
            ("actor leeway", "\(actor) needs a leeway of zero or more, got nan", { ActorScheduler(Idle()).schedule(after: Date(), repeatingEvery: 1, leeway: .nan) {} }),
            ("test interval", "\(test) needs a positive interval, got -1.0", { TestScheduler().schedule(after: Date(), repeatingEvery: -1) {} }),
            ("test leeway", "\(test) needs a leeway of zero or more, got -0.5", { TestScheduler().schedule(after: Date(), repeatingEvery: 1, leeway: -0.5) {} }),
            // Scheduler.immediate cannot repeat; a subclass must override the three primitives.
            ("immediate repeating", "Scheduler.immediate.schedule(after:repeatingEvery:leeway:_:): immediate does not support repeating schedules, got an interval of 2.0", {
                Scheduler.immediate.schedule(after: Date(), repeatingEvery: 2) {}
            }),
            ("no schedule(_:)", "BareScheduler must override Scheduler.schedule(_:)", { BareScheduler().schedule {} }),
            ("no schedule(after:_:)", "BareScheduler must override Scheduler.schedule(after:_:)", { BareScheduler().schedule(after: Date()) {} }),
            ("no repeating schedule", "BareScheduler must override Scheduler.schedule(after:repeatingEvery:leeway:_:)", {
                BareScheduler().schedule(after: Date(), repeatingEvery: 1) {}
            }),
            // TestScheduler's own
            ("step", "TestScheduler.step(_:) needs a count of zero or more, got -1", { TestScheduler().step(-1) }),
            ("advance by", "TestScheduler.advance(by:) needs a finite interval of zero or more, got -1.0", { TestScheduler().advance(by: -1) }),
            ("advance to", "TestScheduler.advance(to:) needs a finite date, got Date(timeIntervalSinceReferenceDate: inf)", {
                TestScheduler().advance(to: Date(timeIntervalSinceReferenceDate: .infinity))
            }),
            ("stepAll, runaway", "TestScheduler.stepAll(): ran 1000 blocks and more keep coming; a repeating schedule is never disposed", {
                let scheduler = TestScheduler(runawayLimit: 1_000)
                scheduler.schedule(after: scheduler.now, repeatingEvery: 1) {}
                scheduler.stepAll()
            }),
            ("advance to, runaway", "TestScheduler.advance(to:): ran 1000 blocks due by 2001-01-01 00:00:01 +0000 and more keep coming", {
                let scheduler = TestScheduler(runawayLimit: 1_000)
                scheduler.schedule(after: scheduler.now, repeatingEvery: 1e-300) {}
                scheduler.advance(by: 1)
            }),
        ])
    }

    // MARK: Signals: operators

    func testSignalOperators() {
        let never = Signal<Int, TestError>.never
        let test = TestScheduler()
        assertStops([
            ("take", "take(_:) needs a count of zero or more, got -1", { _ = never.take(-1) }),
            ("take last", "take(last:) needs a count of zero or more, got -1", { _ = never.take(last: -1) }),
            ("skip", "skip(_:) needs a count of zero or more, got -3", { _ = never.skip(-3) }),
            ("retry", "retry(_:) needs a count of zero (no limit) or more, got -1", { _ = never.retry(-1) }),
            ("flatten", "flatten(maxConcurrent:) needs a limit of zero (none) or more, got -2", {
                _ = Signal<Signal<Int, TestError>, TestError>.never.flatten(maxConcurrent: -2)
            }),
            // checkInterval, checkPositiveInterval, checkScheduler, checkRepetition
            ("delay on", "delay(_:on:) needs an interval of zero or more, got -1.0", { _ = never.delay(-1, on: test) }),
            ("delay", "delay(_:) needs an interval of zero or more, got nan", { _ = never.delay(.nan) }),
            ("throttle on", "throttle(_:on:valuesPassing:) needs an interval of zero or more, got -0.5", { _ = never.throttle(-0.5, on: test) }),
            ("throttle", "throttle(_:valuesPassing:) needs an interval of zero or more, got nan", { _ = never.throttle(.nan) }),
            ("throttle on immediate", "throttle(_:on:valuesPassing:) cannot run on Scheduler.immediate", { _ = never.throttle(0.3, on: .immediate) }),
            ("rateLimit", "rateLimit(_:on:latest:) needs an interval of zero or more, got -1.0", { _ = never.rateLimit(-1, on: test) }),
            ("rateLimit on immediate", "rateLimit(_:on:latest:) cannot run on Scheduler.immediate", { _ = never.rateLimit(1, on: .immediate) }),
            ("pace", "pace(_:on:) needs an interval of zero or more, got nan", { _ = never.pace(.nan, on: test) }),
            ("pace on immediate", "pace(_:on:) cannot run on Scheduler.immediate", { _ = never.pace(1, on: .immediate) }),
            ("pace bounded", "pace(_:on:bufferingAtMost:whenFull:) needs an interval of zero or more, got -1.0", {
                _ = never.pace(-1, on: test, bufferingAtMost: 1, whenFull: .dropNewest)
            }),
            ("pace bounded on immediate", "pace(_:on:bufferingAtMost:whenFull:) cannot run on Scheduler.immediate", {
                _ = never.pace(1, on: .immediate, bufferingAtMost: 1, whenFull: .dropOldest)
            }),
            ("pace limit", "pace(_:on:bufferingAtMost:whenFull:) needs a limit of 1 or more, got 0", {
                _ = never.pace(1, on: test, bufferingAtMost: 0, whenFull: .fail(.first))
            }),
            ("retry with a delay", "retry(_:delay:on:) needs a count of zero (no limit) or more, got -2", { _ = never.retry(-2, delay: .constant(1), on: test) }),
            ("retry delay, constant", "retry(_:delay:on:) needs a delay of zero or more, got -1.0", { _ = never.retry(3, delay: .constant(-1), on: test) }),
            ("retry delay, initial", "retry(_:delay:on:) needs an initial delay of zero or more, got -1.0", { _ = never.retry(3, delay: .exponential(initial: -1), on: test) }),
            ("retry delay, multiplier", "retry(_:delay:on:) needs a multiplier of 1 or more, got 0.5", { _ = never.retry(3, delay: .exponential(initial: 1, multiplier: 0.5), on: test) }),
            ("retry delay, maximum", "retry(_:delay:on:) needs a maximum delay of zero or more, got -1.0", { _ = never.retry(3, delay: .exponential(initial: 1, maximum: -1), on: test) }),
            ("retry delay, retry 0", "RetryDelay.delay(beforeRetry:) counts retries from 1, got 0", { _ = RetryDelay.constant(1).delay(beforeRetry: 0) }),
            ("timeout", "timeout(_:on:) needs an interval of zero or more, got nan", { _ = never.timeout(.nan, on: test, raising: .first) }),
            ("timeout on immediate", "timeout(_:on:) cannot run on Scheduler.immediate, which can only wait by blocking; pass a scheduler that can run work later, got ", {
                _ = never.timeout(1, on: .immediate, raising: .first)
            }),
            ("buffer", "buffer(_:on:) needs a positive interval, got 0.0", { _ = never.buffer(0, on: test) }),
            ("buffer on immediate", "buffer(_:on:) cannot run on Scheduler.immediate", { _ = never.buffer(1, on: .immediate) }),
            ("buffer count", "buffer(count:) needs a count of 1 or more, got 0", { _ = never.buffer(count: 0) }),
            ("buffer count or time", "buffer(count:interval:on:) needs a count of 1 or more, got -1", { _ = never.buffer(count: -1, interval: 1, on: test) }),
            ("buffer count or time, interval", "buffer(count:interval:on:) needs a positive interval, got 0.0", { _ = never.buffer(count: 2, interval: 0, on: test) }),
            ("buffer count or time on immediate", "buffer(count:interval:on:) cannot run on Scheduler.immediate", { _ = never.buffer(count: 2, interval: 1, on: .immediate) }),
            ("interval", "Signal.interval(_:on:leeway:) needs a positive interval, got nan", { _ = Signal<Date, Never>.interval(.nan, on: test) }),
            ("interval leeway", "Signal.interval(_:on:leeway:) needs a leeway of zero or more, got -1.0", { _ = Signal<Date, Never>.interval(1, on: test, leeway: -1) }),
            ("interval on immediate", "Signal.interval(_:on:leeway:) cannot run on Scheduler.immediate", { _ = Signal<Date, Never>.interval(1, on: .immediate) }),
            // Waiting
            ("first result", "asynchronousFirstResult(timeout:) needs a timeout of zero or more, got -1.0", { _ = never.asynchronousFirstResult(timeout: -1) }),
            ("wait until completed", "asynchronouslyWaitUntilCompleted(timeout:) needs a timeout of zero or more, got nan", {
                _ = never.asynchronouslyWaitUntilCompleted(timeout: .nan)
            }),
            // Logic
            ("and of an empty array", "and() needs at least one value in each array, got []", { _ = Signal<[Bool], Never>.return([]).and().subscribeNext { _ in } }),
            ("or of an empty array", "or() needs at least one value in each array, got []", { _ = Signal<[Bool], Never>.return([]).or().subscribeNext { _ in } }),
            ("and of an empty tuple", "and() needs at least one value in each tuple, got ()", { _ = Signal<Tuple, Never>.return(Tuple()).and().subscribeNext { _ in } }),
            ("or of a tuple of Ints", "or() needs a tuple of Bools, got ", { _ = Signal<Tuple, Never>.return(Tuple(true, 1)).or().subscribeNext { _ in } }),
            // switch
            ("switch without a case", "Signal.switch(_:cases:default:) has no case for absent and no default, and its Failure type TestError cannot hold SignalError.noMatchingCase", {
                _ = Signal<Int, TestError>.switch(.return("absent"), cases: ["present": never], default: nil).subscribeNext { _ in }
            }),
            // Swift concurrency
            ("values, negative limit", "Signal.values(bufferingPolicy:) needs a buffer limit of zero or more, got -1", { _ = never.values(bufferingPolicy: .bufferingNewest(-1)) }),
            ("values, two waiting next()", "SignalValues.Iterator.next(): called while another next() on the same iterator (or a copy of it) is waiting", {
                let iterator = IteratorBox(Signal<Int, Never>.never.values.makeAsyncIterator())
                for _ in 0..<2 {
                    Task.detached {
                        var copy = iterator.iterator
                        _ = await copy.next()
                    }
                }
                // The second `next()` to wait stops the program; `expectStop` kills a child that hangs.
                while true { sleep(1) }
            }),
        ])
    }

    // MARK: Signals: marble diagrams

    func testMarbleDiagrams() {
        let cold = "TestScheduler.createColdSignal(_:values:frame:)"
        let hot = "TestScheduler.createHotSignal(_:values:error:frame:)"
        let mismatch = "SignalRecording.mismatch(expected:values:error:frame:)"
        assertStops([
            ("Marbles", "Marbles(_:): ')' without '(' at offset 1 of marble diagram \"a)\"", { _ = Marbles("a)") }),
            ("a frame that is not positive", "\(hot): the frame must be a positive number of seconds, got 0.0", {
                _ = TestScheduler().createHotSignal("a|", values: ["a": 1], error: TestError.first, frame: 0)
            }),
            ("a malformed diagram", "\(cold): a second '^' at offset 2 of marble diagram \"^-^\"", {
                _ = TestScheduler().createColdSignal("^-^", values: [:] as [Character: Int])
            }),
            ("'#' that cannot fail", "\(cold): '#' in marble diagram \"a#\", but the signal cannot fail", {
                _ = TestScheduler().createColdSignal("a#", values: ["a": 1])
            }),
            ("a letter without a value", "\(cold): no value for 'b' of marble diagram \"a-b|\" (at frame 2) in the values table", {
                _ = TestScheduler().createColdSignal("a-b|", values: ["a": 1])
            }),
            ("'^' in a cold signal", "\(cold): a cold signal starts at each subscription and has no '^', in marble diagram \"^a|\"", {
                _ = TestScheduler().createColdSignal("^a|", values: ["a": 1])
            }),
            ("'^' in an expected diagram", "\(mismatch): an expected diagram starts with the recording and has no '^', in marble diagram \"^|\"", {
                _ = TestScheduler().record(Signal<Int, TestError>.empty).mismatch(expected: "^|", error: .first)
            }),
            ("a recording's frame", "SignalRecording.marbles(frame:_:): the frame must be a positive number of seconds, got -1.0", {
                _ = TestScheduler().record(Signal<Int, Never>.empty).marbles(frame: -1) { _ in "a" }
            }),
            ("a recording too long for its frame", "SignalRecording.marbles(frame:_:): an event comes more than 100000 frames of 1.0 s after the start", {
                let scheduler = TestScheduler()
                let recording = scheduler.record(Signal<Int, Never>.empty.delay(200_000, on: scheduler))
                scheduler.advance(by: 200_000)
                _ = recording.marbles { _ in "a" }
            }),
        ])
    }

    // MARK: Signals: the virtual-time harness

    func testVirtualTimeHarness() {
        let start = "TestScheduler.start(created:subscribed:disposed:_:)"
        assertStops([
            ("start: a NaN time", "\(start) needs finite times, got created 100.0, subscribed nan, disposed 1000.0", {
                _ = TestScheduler().start(subscribed: .nan) { Signal<Int, Never>.empty }
            }),
            ("start: an infinite time", "\(start) needs finite times, got created 100.0, subscribed 200.0, disposed inf", {
                _ = TestScheduler().start(disposed: .infinity) { Signal<Int, Never>.empty }
            }),
            ("start: created after subscribed", "\(start) needs created <= subscribed <= disposed, got created 300.0, subscribed 200.0, disposed 1000.0", {
                _ = TestScheduler().start(created: 300) { Signal<Int, Never>.empty }
            }),
            ("start: disposed before subscribed", "\(start) needs created <= subscribed <= disposed, got created 100.0, subscribed 200.0, disposed 150.0", {
                _ = TestScheduler().start(disposed: 150) { Signal<Int, Never>.empty }
            }),
            ("start: a time the clock has passed", "\(start) needs times still to come on the clock, which reads 150.0 s, got created 100.0, subscribed 200.0, disposed 1000.0", {
                let scheduler = TestScheduler()
                scheduler.advance(by: 150)
                _ = scheduler.start { Signal<Int, Never>.empty }
            }),
            ("createHotSignal: a NaN time", "TestScheduler.createHotSignal(_:) needs times that are numbers, got next(1) at nan s", {
                _ = TestScheduler().createHotSignal([Recorded<Int, Never>.next(.nan, 1)])
            }),
            ("createColdSignal: a NaN time", "TestScheduler.createColdSignal(_:) needs times that are numbers, got completed at nan s", {
                _ = TestScheduler().createColdSignal([Recorded<Int, Never>.completed(.nan)])
            }),
        ])
    }

    // MARK: Subjects

    func testSubjects() {
        assertStops([
            ("ReplaySubject capacity", "ReplaySubject(capacity:) needs a capacity of zero or more, got -1", { _ = ReplaySubject<Int, Never>(capacity: -1) }),
            ("share replay", "share(replay:) needs a count of zero or more, got -1", { _ = Signal<Int, Never>.never.share(replay: -1) }),
            ("bind to itself", "ObservableValue.bind(to:) needs another cell than the one bound, got the cell itself", {
                let cell = ObservableValue(0)
                _ = cell.bind(to: cell)
            }),
            ("observe on immediate", "signal(for:on:) needs a scheduler that runs blocks later, one at a time (the main thread, a QueueScheduler, an ActorScheduler), got Scheduler.immediate", {
                _ = CatalogModel().signal(for: \.value, on: .immediate)
            }),
            ("channel on immediate", "channel(for:on:) needs a scheduler that runs blocks later, one at a time (the main thread, a QueueScheduler, an ActorScheduler), got Scheduler.immediate", {
                _ = CatalogModel().channel(for: \.value, on: .immediate)
            }),
        ])
    }

    // MARK: Nesting too deep for the stack

    func testNestingTooDeepForTheStack() {
        assertStops([
            ("a signal chain", "Signal: subscribing a signal chain nests more deeply than this thread's stack allows, at the operator whose sink is MapSink", {
                onAPlainThread(stackSize: 512 * 1024) {
                    var signal = Signal<Int, Never>.never
                    for _ in 0..<100_000 { signal = signal.map { $0 + 1 } }
                    signal.subscribe(next: { _ in })
                }
            }),
            ("lifetimes ending each other", "Lifetime: ending a lifetime nests more deeply than this thread's stack allows", {
                onAPlainThread(stackSize: 512 * 1024) {
                    // Each lifetime's end lets go of the token of the next.
                    var token: Lifetime.Token?
                    for _ in 0..<20_000 {
                        let (lifetime, next) = Lifetime.make()
                        let held = UncheckedSendable(token)
                        lifetime.observeEnded { withExtendedLifetime(held) {} }
                        token = next
                    }
                    token = nil
                }
            }),
            ("a read through computed properties", "Property: reading the value of a property nests more deeply than this thread's stack allows", {
                onAPlainThread(stackSize: 512 * 1024) {
                    var property = Property(ObservableValue(0))
                    for _ in 0..<20_000 { property = property.map { $0 + 1 } }
                    _ = property.value
                }
            }),
            ("a change through zipped properties", "Property: a change passing through zipped properties nests more deeply than this thread's stack allows", {
                onAPlainThread(stackSize: 512 * 1024) {
                    let cell = ObservableValue(0)
                    let partner = ObservableValue(0)
                    var property = Property(cell)
                    for _ in 0..<2_000 { property = property.zip(with: Property(partner)).map(\.0) }
                    partner.value = 1
                    cell.value = 1
                }
            }),
        ])
    }

    // MARK: Every check is in the catalog

    /// The calls of each check in Sources, as counted when the catalog above was last brought up
    /// to date. A check added, moved into a new call, or removed changes a count: add its case
    /// above (or its reason to the list of checks not triggerable at the top), then the count here.
    private static let recordedCallSites: [String: Int] = [
        "checkInput(": 51,
        "badInput(": 16,
        "checkDate(": 3,
        "checkDelay(": 3,
        "checkRepetition(": 2,
        "checkInterval(": 5,
        "checkPositiveInterval(": 2,
        "checkScheduler(": 5,
        "checkStack(": 2,
        "check(": 1,
        "fatalError(": 5,
        "precondition(": 0,
        "preconditionFailure(": 8,
    ]

    func testEveryCheckInSourcesIsCatalogued() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let sites = try callSites(in: sources, of: Array(Self.recordedCallSites.keys))
        let counts = Dictionary(grouping: sites, by: \.check).mapValues(\.count)
        for (check, recorded) in Self.recordedCallSites.sorted(by: { $0.key < $1.key }) {
            let found = counts[check, default: 0]
            XCTAssertEqual(
                found,
                recorded,
                "Sources call \(check)…) at \(found) places, the catalog knows \(recorded): a check of bad input was added or "
                    + "removed without its catalog entry. Trigger the new check in BadInputCatalogTests (or list it at the top "
                    + "of the file as not triggerable, with the reason), then record the count. The calls:\n"
                    + sites.filter { $0.check == check }.map(\.place).joined(separator: "\n")
            )
        }
    }
}

// MARK: - Helpers

private actor Idle {}

/// A scheduler of a user's that overrides nothing: each primitive stops the program.
final class BareScheduler: Scheduler, @unchecked Sendable {
    init() {
        super.init(name: "bare")
    }
}

/// Holds a list whose own blocks look it up.
private final class ListBox: @unchecked Sendable {
    var list: LazyList<Int>?
}

/// Holds an iterator for the tasks that share it.
private final class IteratorBox: @unchecked Sendable {
    let iterator: SignalValues<Int, Never>.Iterator

    init(_ iterator: SignalValues<Int, Never>.Iterator) {
        self.iterator = iterator
    }
}

/// A list whose head block pulls the head of a list like it, `depth` deep.
private func headsPullingHeads(_ depth: Int) -> LazyList<Int> {
    LazyList(head: { depth == 0 ? 0 : headsPullingHeads(depth - 1).head! }, tail: { .empty })
}

/// Each call in the Swift files under `directory` of one of `checks` (names ending in `(`), with
/// its file and line: doc comments, comments and declarations (`func check(`) are not calls.
private func callSites(in directory: URL, of checks: [String]) throws -> [(check: String, place: String)] {
    let files = try XCTUnwrap(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        .compactMap { $0 as? URL }
        .filter { $0.pathExtension == "swift" }
        .sorted { $0.path < $1.path }
    XCTAssertFalse(files.isEmpty, "no Swift files under \(directory.path)")
    var sites: [(check: String, place: String)] = []
    for file in files {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        for (index, line) in lines.enumerated() {
            let code = line.components(separatedBy: "//").first ?? ""
            for check in checks {
                var searchStart = code.startIndex
                while let found = code.range(of: check, range: searchStart..<code.endIndex) {
                    searchStart = found.upperBound
                    let before = code[..<found.lowerBound]
                    if let previous = before.last, previous.isLetter || previous.isNumber || previous == "_" { continue }
                    if before.hasSuffix("func ") { continue }
                    sites.append((check, "\(file.path.replacingOccurrences(of: directory.path + "/", with: "")):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))"))
                }
            }
        }
    }
    return sites
}
