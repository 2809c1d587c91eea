/// The generator and the array model of the differential tests (`DifferentialTests`): random chains
/// of stream operators, each with a readable description and the result that RAC 2.5's rules give
/// for it, computed on plain arrays of values, each with the time it is sent; the generator is
/// TestSupport's `SplitMix64`.

import TestSupport

/// A named function on `Int`, so that a chain can be printed.
struct Transform: Sendable, CustomStringConvertible {
    let description: String
    let apply: @Sendable (Int) -> Int
}

/// A named predicate on `Int`.
struct Predicate: Sendable, CustomStringConvertible {
    let description: String
    let test: @Sendable (Int) -> Bool
}

/// A named combination of two `Int`s (for `scan`, `combinePrevious` and `zip`).
struct Combiner: Sendable, CustomStringConvertible {
    let description: String
    let apply: @Sendable (Int, Int) -> Int
}

/// A finite input: its values, then completion or an error. `form` picks how it is built, so that
/// each construction is exercised (see `DifferentialTests`): 0 a created signal and `LazyList(array)`,
/// 1 (printed "eager") the signal bridge of a lazy list and an eager list, 2 (printed "stepwise") a
/// `concat` of `return`s and a list read from an iterator.
struct Source: Sendable, CustomStringConvertible {
    static let formNames = ["", "eager", "stepwise"]

    var values: [Int]
    var fails: Bool
    var form: Int

    var description: String {
        let items = values.map(String.init) + (fails ? ["error"] : [])
        return Self.formNames[form] + "[" + items.joined(separator: ", ") + "]"
    }
}

/// The inner signal or list `flattenMap` makes for an element: `values(x)`, then an error when
/// `fails` holds for `x`, else completion, built as `form` says (as for a ``Source``). With
/// `nilWhenEmpty`, the block returns `nil` for an inner that would be empty and complete (which
/// both libraries take for an empty one).
struct Inner: Sendable, CustomStringConvertible {
    let name: String
    let values: @Sendable (Int) -> [Int]
    var fails: Predicate?
    var nilWhenEmpty: Bool
    var form: Int

    func source(for element: Int) -> Source {
        Source(values: values(element), fails: failsFor(element), form: form)
    }

    func returnsNil(for element: Int) -> Bool {
        nilWhenEmpty && values(element).isEmpty && !failsFor(element)
    }

    func failsFor(_ element: Int) -> Bool {
        fails?.test(element) ?? false
    }

    var description: String {
        name + (form == 0 ? "" : " as \(Source.formNames[form])") + (fails.map { ", error if \($0)" } ?? "")
            + (nilWhenEmpty ? ", nil for []" : "")
    }
}

/// How the trigger of `take(until:)` or `skip(until:)` fires.
enum Firing: CaseIterable, Sendable {
    case next, completed, error
}

/// Which spelling of a two-input operator a step uses.
enum Spelling: Sendable {
    /// `a.zip(with: b)`, `a.concat(b)`.
    case method
    /// `zip(a, b)`, the variadic static form.
    case variadic
    /// `zip([a, b])`, `concat([a, b])`: the static form taking a sequence.
    case array
}

/// One operator of a chain.
enum Step: Sendable, CustomStringConvertible {
    case map(Transform)
    case mapReplace(Int)
    case filter(Predicate)
    case ignore(Int)
    case take(Int)
    case skip(Int)
    case takeWhile(Predicate)
    case takeUntilTrue(Predicate)
    case skipWhile(Predicate)
    case skipUntilTrue(Predicate)
    case scan(Int, Combiner)
    /// `scan(start, withIndex:)` with `running + element * (index + 1)`.
    case scanWithIndex(Int)
    case combinePrevious(Int, Combiner)
    case distinctUntilChanged
    /// `distinctUntilChanged(by:)`: equal modulo the number.
    case distinctUntilChangedModulo(Int)
    case startWith(Int)
    case concat(Source, Spelling)
    case zip(Source, Combiner, Spelling)
    case flattenMap(Inner)
    /// `take(until:)` (`Signal` only), whose trigger fires as the `at`-th value arrives (before it
    /// is passed on), or at once when subscribed for `at == 0`.
    case takeUntil(at: Int, Firing)
    /// `skip(until:)` (`Signal` only), with a trigger as for `takeUntil`.
    case skipUntil(at: Int, Firing)
    /// `take(untilReplacement:)` (`Signal` only), whose replacement sends the events of the step's
    /// source as the `at`-th value arrives (before it is passed on), or as the input completes if
    /// it has fewer values; for `at == 0`, as the replacement is subscribed.
    case takeUntilReplacement(Source, at: Int)

    var description: String {
        switch self {
        case let .map(transform): "map(\(transform))"
        case let .mapReplace(value): "mapReplace(\(value))"
        case let .filter(predicate): "filter(\(predicate))"
        case let .ignore(value): "ignore(\(value))"
        case let .take(count): "take(\(count))"
        case let .skip(count): "skip(\(count))"
        case let .takeWhile(predicate): "take(while: \(predicate))"
        case let .takeUntilTrue(predicate): "take(untilTrue: \(predicate))"
        case let .skipWhile(predicate): "skip(while: \(predicate))"
        case let .skipUntilTrue(predicate): "skip(untilTrue: \(predicate))"
        case let .scan(start, combiner): "scan(\(start), \(combiner))"
        case let .scanWithIndex(start): "scan(\(start), withIndex: r + e*(i+1))"
        case let .combinePrevious(start, combiner): "combinePrevious(\(start), \(combiner))"
        case .distinctUntilChanged: "distinctUntilChanged"
        case let .distinctUntilChangedModulo(modulus): "distinctUntilChanged(by: same mod \(modulus))"
        case let .startWith(value): "startWith(\(value))"
        case let .concat(source, .method): "concat(\(source))"
        case let .concat(source, _): "concat([·, \(source)])"
        case let .zip(source, combiner, .method): "zip(with: \(source)) |> map(\(combiner))"
        case let .zip(source, combiner, .variadic): "zip(·, \(source)) |> map(\(combiner))"
        case let .zip(source, combiner, .array): "zip([·, \(source)]) |> map(\(combiner))"
        case let .flattenMap(inner): "flattenMap(\(inner))"
        case let .takeUntil(at, firing): "take(until: \(firing) \(Self.moment(at)))"
        case let .skipUntil(at, firing): "skip(until: \(firing) \(Self.moment(at)))"
        case let .takeUntilReplacement(source, at):
            "take(untilReplacement: \(source) \(at == 0 ? "at subscription" : "at value #\(at) or completion"))"
        }
    }

    private static func moment(_ at: Int) -> String {
        at == 0 ? "at subscription" : "at value #\(at)"
    }

    /// The step with every error taken out of its sources (a trigger's error stays: it ends no
    /// stream).
    var withoutErrors: Step {
        switch self {
        case let .concat(source, spelling):
            .concat(Source(values: source.values, fails: false, form: source.form), spelling)
        case let .zip(source, combiner, spelling):
            .zip(Source(values: source.values, fails: false, form: source.form), combiner, spelling)
        case let .takeUntilReplacement(source, at):
            .takeUntilReplacement(Source(values: source.values, fails: false, form: source.form), at: at)
        case let .flattenMap(inner):
            .flattenMap(Inner(name: inner.name, values: inner.values, fails: nil, nilWhenEmpty: inner.nilWhenEmpty, form: inner.form))
        default:
            self
        }
    }
}

/// What a stream sends: its values, then an error (`fails`) or completion.
struct Outcome: Equatable, Sendable, CustomStringConvertible {
    var values: [Int]
    var fails: Bool

    var description: String {
        "\(values) then " + (fails ? "error" : "completed")
    }
}

/// What a stream sends and when: at time 0 while the chain is being subscribed (inside
/// `subscribe`), at time n ≥ 1 in the n-th step of the one source that sends on a queue
/// scheduler, one event per step (its values, then its end).
struct Timeline: Sendable, CustomStringConvertible {
    struct Value: Sendable {
        var time: Int
        var value: Int
    }

    var values: [Value]
    var fails: Bool
    var endTime: Int

    var outcome: Outcome {
        Outcome(values: values.map(\.value), fails: fails)
    }

    /// Each event with its time: `[1@0, 2@3] then completed@4`.
    var description: String {
        "[" + values.map { "\($0.value)@\($0.time)" }.joined(separator: ", ") + "] then "
            + (fails ? "error" : "completed") + "@\(endTime)"
    }

    /// Its first `count` values, then completion at `time`.
    func completing(at time: Int, keeping count: Int) -> Timeline {
        Timeline(values: Array(values.prefix(count)), fails: false, endTime: time)
    }

    func withValues(_ values: [Value]) -> Timeline {
        Timeline(values: values, fails: fails, endTime: endTime)
    }

    func mapValues(_ transform: (Int) -> Int) -> Timeline {
        withValues(values.map { Value(time: $0.time, value: transform($0.value)) })
    }
}

extension Source {
    /// The source sending its events inside the subscription, or, `stepped`, one per step of a
    /// queue scheduler.
    func timeline(stepped: Bool) -> Timeline {
        Timeline(
            values: values.enumerated().map { Timeline.Value(time: stepped ? $0.offset + 1 : 0, value: $0.element) },
            fails: fails,
            endTime: stepped ? values.count + 1 : 0
        )
    }
}

/// A generated chain: a source and the steps applied to it, in order.
struct Chain: Sendable, CustomStringConvertible {
    let source: Source
    let steps: [Step]

    var description: String {
        ([source.description] + steps.map(\.description)).joined(separator: " |> ")
    }

    var withoutErrors: Chain {
        Chain(source: Source(values: source.values, fails: false, form: source.form), steps: steps.map(\.withoutErrors))
    }

    /// What RAC 2.5's rules make the chain send, and when, when every input but the chain's source
    /// sends inside its subscription, and the source does too or (`stepped`) sends one event per
    /// step of a queue scheduler.
    ///
    /// Every operator of the chain is subscribed inside the chain's subscription, each before the
    /// one it feeds, so at time 0 the first input of `zip` sends what it sends then before the
    /// second is subscribed.
    func model(stepped: Bool = false) -> Timeline {
        steps.reduce(source.timeline(stepped: stepped)) { $1.model($0) }
    }
}

extension Step {
    /// This operator applied to `input`.
    func model(_ input: Timeline) -> Timeline {
        let values = input.values
        switch self {
        case let .map(transform):
            return input.mapValues(transform.apply)
        case let .mapReplace(value):
            return input.mapValues { _ in value }
        case let .filter(predicate):
            return input.withValues(values.filter { predicate.test($0.value) })
        case let .ignore(ignored):
            return input.withValues(values.filter { $0.value != ignored })
        case let .take(count):
            // `take(0)` completes at once; `take(n)` completes with the n-th value.
            if count == 0 { return input.completing(at: 0, keeping: 0) }
            return values.count >= count ? input.completing(at: values[count - 1].time, keeping: count) : input
        case let .skip(count):
            return input.withValues(Array(values.dropFirst(count)))
        case let .takeWhile(predicate):
            return Self.taking(input, upTo: values.firstIndex { !predicate.test($0.value) })
        case let .takeUntilTrue(predicate):
            return Self.taking(input, upTo: values.firstIndex { predicate.test($0.value) })
        case let .skipWhile(predicate):
            return input.withValues(Array(values.drop { predicate.test($0.value) }))
        case let .skipUntilTrue(predicate):
            return input.withValues(Array(values.drop { !predicate.test($0.value) }))
        case let .scan(start, combiner):
            var running = start
            return input.mapValues { running = combiner.apply(running, $0); return running }
        case let .scanWithIndex(start):
            var running = start
            var index = 0
            return input.mapValues { value in
                running = Self.indexedScan(running, value, index)
                index += 1
                return running
            }
        case let .combinePrevious(start, combiner):
            var previous = start
            return input.mapValues { value in
                defer { previous = value }
                return combiner.apply(previous, value)
            }
        case .distinctUntilChanged:
            return Self.distinct(input) { $0 == $1 }
        case let .distinctUntilChangedModulo(modulus):
            return Self.distinct(input) { Self.sameModulo(modulus)($0, $1) }
        case let .startWith(value):
            return input.withValues([Timeline.Value(time: 0, value: value)] + values)
        case let .concat(source, _):
            // The second input is subscribed when the first completes, and sends inside that.
            if input.fails { return input }
            let time = input.endTime
            return Timeline(values: values + source.values.map { Timeline.Value(time: time, value: $0) },
                            fails: source.fails, endTime: time)
        case let .zip(source, combiner, _):
            return Self.zip(input, source.timeline(stepped: false), combiner)
        case let .flattenMap(inner):
            // Each inner sends everything when made; an inner's error ends everything.
            var output: [Timeline.Value] = []
            for value in values {
                output += inner.values(value.value).map { Timeline.Value(time: value.time, value: $0) }
                if inner.failsFor(value.value) { return Timeline(values: output, fails: true, endTime: value.time) }
            }
            return input.withValues(output)
        case let .takeUntil(at, firing):
            // A trigger's error is ignored; its value or completion completes the result before
            // the value that made it fire is passed on.
            if firing == .error { return input }
            if at == 0 { return input.completing(at: 0, keeping: 0) }
            return values.count >= at ? input.completing(at: values[at - 1].time, keeping: at - 1) : input
        case let .skipUntil(at, firing):
            // A trigger's error leaves every value dropped; the source's end passes through.
            if firing == .error { return input.withValues([]) }
            if at == 0 { return input }
            return input.withValues(Array(values.dropFirst(at - 1)))
        case let .takeUntilReplacement(replacement, at):
            // The replacement's first event disposes the input, whose completion the result
            // ignores, and its events end the result; the input's error ends the result too.
            let time: Int
            let kept: [Timeline.Value]
            if at == 0 {
                (time, kept) = (0, [])
            } else if values.count >= at {
                (time, kept) = (values[at - 1].time, Array(values.prefix(at - 1)))
            } else if !input.fails {
                (time, kept) = (input.endTime, values)
            } else {
                return input
            }
            return Timeline(values: kept + replacement.values.map { Timeline.Value(time: time, value: $0) },
                            fails: replacement.fails, endTime: time)
        }
    }

    private static func taking(_ input: Timeline, upTo end: Int?) -> Timeline {
        guard let end else { return input }
        return input.completing(at: input.values[end].time, keeping: end)
    }

    private static func distinct(_ input: Timeline, _ same: (Int, Int) -> Bool) -> Timeline {
        var output: [Timeline.Value] = []
        for value in input.values where output.last.map({ !same($0.value, value.value) }) ?? true {
            output.append(value)
        }
        return input.withValues(output)
    }

    /// RAC 2.5's `zip`, run on the events of both inputs in the order they happen (at the same
    /// time, the first input's before the second's, as it is subscribed first): a row when both
    /// have a value waiting; completion as soon as an input has completed with no value waiting,
    /// checked after each row and each completion; an error at once.
    private static func zip(_ first: Timeline, _ second: Timeline, _ combiner: Combiner) -> Timeline {
        enum Event {
            case value(Int, lane: Int)
            case end(fails: Bool, lane: Int)
        }
        func events(_ timeline: Timeline, lane: Int) -> [(time: Int, event: Event)] {
            timeline.values.map { ($0.time, .value($0.value, lane: lane)) } + [(timeline.endTime, .end(fails: timeline.fails, lane: lane))]
        }
        // A stable sort by time keeps each input's order and puts the first input's events first.
        let merged = (events(first, lane: 0) + events(second, lane: 1)).enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        var lanes: [[Int]] = [[], []]
        var completed = [false, false]
        var rows: [Timeline.Value] = []
        func finished() -> Bool {
            (completed[0] && lanes[0].isEmpty) || (completed[1] && lanes[1].isEmpty)
        }
        for (time, event) in merged {
            switch event {
            case let .value(value, lane):
                lanes[lane].append(value)
                if !lanes[0].isEmpty, !lanes[1].isEmpty {
                    rows.append(Timeline.Value(time: time, value: combiner.apply(lanes[0].removeFirst(), lanes[1].removeFirst())))
                    if finished() { return Timeline(values: rows, fails: false, endTime: time) }
                }
            case let .end(fails, lane):
                if fails { return Timeline(values: rows, fails: true, endTime: time) }
                completed[lane] = true
                if finished() { return Timeline(values: rows, fails: false, endTime: time) }
            }
        }
        // Both inputs have ended, so one of the checks above has ended the zip.
        return Timeline(values: rows, fails: false, endTime: max(first.endTime, second.endTime))
    }

    static func indexedScan(_ running: Int, _ value: Int, _ index: Int) -> Int {
        running &+ value &* (index &+ 1)
    }

    static func sameModulo(_ modulus: Int) -> @Sendable (Int, Int) -> Bool {
        { a, b in ((a % modulus) + modulus) % modulus == ((b % modulus) + modulus) % modulus }
    }
}

/// Makes chains from seeds.
enum ChainGenerator {
    /// The chain for `seed`: depth 1 to 6, inputs of 0 to 8 small numbers. About a third of the
    /// seeds may fail: their source and the sources their steps bring may end with an error.
    static func chain(seed: UInt64) -> Chain {
        var random = SplitMix64(seed: seed)
        let withErrors = random.oneIn(3)
        let source = makeSource(&random, failing: withErrors && random.oneIn(2))
        let depth = random.int(in: 1...6)
        let steps = (0..<depth).map { _ in makeStep(&random, withErrors: withErrors) }
        return Chain(source: source, steps: steps)
    }

    private static func makeSource(_ random: inout SplitMix64, failing: Bool) -> Source {
        let count = random.int(in: 0...8)
        return Source(values: (0..<count).map { _ in random.int(in: 0...5) }, fails: failing, form: random.int(in: 0...2))
    }

    private static func makeStep(_ random: inout SplitMix64, withErrors: Bool) -> Step {
        switch random.int(in: 0...23) {
        case 0, 1: return .map(transform(&random))
        case 2: return .mapReplace(random.int(in: 0...3))
        case 3, 4: return .filter(predicate(&random))
        case 5: return .ignore(random.int(in: 0...3))
        case 6: return .take(random.int(in: 0...4))
        case 7: return .skip(random.int(in: 0...4))
        case 8: return .takeWhile(predicate(&random))
        case 9: return .takeUntilTrue(predicate(&random))
        case 10: return .skipWhile(predicate(&random))
        case 11: return .skipUntilTrue(predicate(&random))
        case 12: return .scan(random.int(in: -1...2), combiner(&random))
        case 13: return .scanWithIndex(random.int(in: 0...2))
        case 14: return .combinePrevious(random.int(in: 0...3), combiner(&random))
        case 15: return .distinctUntilChanged
        case 16: return .distinctUntilChangedModulo(random.int(in: 2...3))
        case 17: return .startWith(random.int(in: 0...5))
        case 18:
            return .concat(makeSource(&random, failing: withErrors && random.oneIn(3)), random.pick([.method, .array]))
        case 19:
            return .zip(makeSource(&random, failing: withErrors && random.oneIn(3)), combiner(&random),
                        random.pick([.method, .variadic, .array]))
        case 20:
            let fails = withErrors && random.oneIn(3) ? predicate(&random) : nil
            let (name, values) = random.pick(innerShapes)
            return .flattenMap(Inner(name: name, values: values, fails: fails, nilWhenEmpty: random.oneIn(2),
                                     form: random.int(in: 0...2)))
        case 21: return .takeUntil(at: random.int(in: 0...4), random.pick(Firing.allCases))
        case 22: return .skipUntil(at: random.int(in: 0...4), random.pick(Firing.allCases))
        default:
            return .takeUntilReplacement(makeSource(&random, failing: withErrors && random.oneIn(3)), at: random.int(in: 0...4))
        }
    }

    private static func transform(_ random: inout SplitMix64) -> Transform {
        let k = random.int(in: 1...3)
        switch random.int(in: 0...4) {
        case 0: return Transform(description: "+\(k)") { $0 &+ k }
        case 1: return Transform(description: "-\(k)") { $0 &- k }
        case 2: return Transform(description: "*\(k + 1)") { $0 &* (k + 1) }
        case 3: return Transform(description: "%\(k + 1)") { $0 % (k + 1) }
        default: return Transform(description: "/2") { $0 / 2 }
        }
    }

    private static func predicate(_ random: inout SplitMix64) -> Predicate {
        let k = random.int(in: 0...5)
        switch random.int(in: 0...5) {
        case 0: return Predicate(description: "even") { $0.isMultiple(of: 2) }
        case 1: return Predicate(description: "odd") { !$0.isMultiple(of: 2) }
        case 2: return Predicate(description: "< \(k)") { $0 < k }
        case 3: return Predicate(description: "> \(k)") { $0 > k }
        case 4: return Predicate(description: "== \(k)") { $0 == k }
        default: return Predicate(description: "!= \(k)") { $0 != k }
        }
    }

    private static func combiner(_ random: inout SplitMix64) -> Combiner {
        random.pick([
            Combiner(description: "+") { $0 &+ $1 },
            Combiner(description: "-") { $0 &- $1 },
            Combiner(description: "max") { max($0, $1) },
            Combiner(description: "min") { min($0, $1) },
        ])
    }

    /// The shapes of `flattenMap`'s inner streams, by name.
    private static let innerShapes: [(String, @Sendable (Int) -> [Int])] = [
        ("x ↦ [x] * (|x| % 3)", { Array(repeating: $0, count: abs($0 % 3)) }),
        ("x ↦ [x, x+1]", { [$0, $0 &+ 1] }),
        ("x ↦ [x]", { [$0] }),
        ("x ↦ x ..< x + |x| % 4", { x in (0..<abs(x % 4)).map { x &+ $0 } }),
    ]
}
