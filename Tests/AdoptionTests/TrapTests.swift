import ReactiveCocoaSwift
import TestSupport
import XCTest

// Each test is a trap a new user fell into, written the way the user wrote it. The target
// compiles in the Swift 6 language mode with warnings as errors and imports only the umbrella
// module, so a shape that compiles here compiles in a user's app, and a shape that would only
// warn (an `await` with nothing async, a `try` with nothing that throws) fails the build.

private struct SearchError: Error, Equatable {}

@Sendable private func search(_ query: String) async throws -> [String] {
    await Task.yield()
    return [query, query + "!"]
}

@Sendable private func typedSearch(_ query: String) async throws(SearchError) -> [String] {
    guard !query.isEmpty else { throw SearchError() }
    return [query]
}

final class TrapTests: LeakCheckedTestCase {
    // MARK: The standard library's `lazy` on a list

    /// `LazyList(1...).lazy.compactMap { … }.prefix(3)` once hung: `lazy` was the list's own and
    /// the eager `compactMap` walked the endless list. Now `lazy` is the standard library's.
    func testLazy_isTheStandardLibrarysOnAList() {
        let evens = withWatchdog("the standard lazy on an endless LazyList") {
            Array(LazyList(1...).lazy.compactMap { $0.isMultiple(of: 2) ? $0 * 10 : nil }.prefix(3))
        }
        XCTAssertEqual(evens, [20, 40, 60])
    }

    /// RAC's names for the list's own eager and lazy forms.
    func testEagerSequenceAndLazySequence_areRACsNames() {
        let eager = LazyList([1, 2, 3]).eagerSequence
        XCTAssertTrue(eager.isEager)
        XCTAssertFalse(eager.lazySequence.isEager)
        XCTAssertEqual(eager.map { $0 * 2 }.array, [2, 4, 6])
    }

    /// The one-list operators of `Signal` that make sense on a list.
    func testListOperators_ignoreNilAndLogic() {
        XCTAssertEqual(LazyList(["a", nil, "b", nil]).ignoreNil().array, ["a", "b"])
        let endless: [Int] = withWatchdog("ignoreNil on an endless list") {
            LazyList(1...).map { value -> Int? in value.isMultiple(of: 3) ? value : nil }.ignoreNil().take(2).array
        }
        XCTAssertEqual(endless, [3, 6])
        XCTAssertEqual(LazyList([true, false]).not().array, [false, true])
        XCTAssertEqual(LazyList([[true, true], [true, false]]).and().array, [true, false])
        XCTAssertEqual(LazyList([[false, true], [false, false]]).or().array, [true, false])
        XCTAssertEqual(LazyList([Tuple(true, true), Tuple(true, false)]).and().array, [true, false])
        XCTAssertEqual(LazyList([Tuple(false, true), Tuple(false, false)]).or().array, [true, false])
    }

    // MARK: Async forms with names of their own

    /// `await signal.collect()` once picked the operator and gave a signal, with only a warning.
    /// The async forms are `firstValue()` and `allValues()`; `collect()` is the operator
    /// everywhere.
    func testAsyncForms_haveNamesOfTheirOwn() async {
        let numbers = Signal<Int, Never>.return(1).concat(.return(2))
        let all: [Int] = await numbers.allValues()
        let first: Int? = await numbers.firstValue()
        let collected: Signal<[Int], Never> = numbers.collect()
        let collectedArray = await collected.firstValue()
        XCTAssertEqual(all, [1, 2])
        XCTAssertEqual(first, 1)
        XCTAssertEqual(collectedArray, [1, 2])
    }

    // MARK: The blocking forms throw the typed failure

    /// The blocking `first()` once returned `nil` on error, and `try` before it only warned.
    func testBlockingForms_throwTheTypedFailure() {
        let failing = Signal<Int, SearchError>.error(SearchError())
        do {
            _ = try failing.first()
            XCTFail("first() did not throw")
        } catch {
            XCTAssertEqual(error, SearchError())   // typed: no cast
        }
        do {
            _ = try failing.toArray()
            XCTFail("toArray() did not throw")
        } catch {
            XCTAssertEqual(error, SearchError())
        }
        XCTAssertNil(try? failing.first())   // RAC 2.5's nil on error
        // Nothing to catch for `Never`: no `try`, and a `try` here would fail this target's build.
        let numbers = Signal<Int, Never>.return(7)
        let first: Int? = numbers.first()
        let all: [Int] = numbers.toArray()
        XCTAssertEqual(first, 7)
        XCTAssertEqual(all, [7])
        XCTAssertEqual(failing.first(default: 0), 0)
        XCTAssertEqual(failing.firstResult(), .failure(SearchError()))
    }

    // MARK: Async work as a signal

    /// `Signal { try await api(query) }` is a `Signal<V, any Error>`; a typed failure comes from
    /// saying the closure's thrown type, or from `mapError`.
    func testAsyncWork_untypedAndTypedFailures() async throws {
        let untyped = Signal { try await search("rac") }
        XCTAssertTrue(type(of: untyped) == Signal<[String], any Error>.self)
        let results = try await untyped.allValues()
        XCTAssertEqual(results, [["rac", "rac!"]])

        let typed = Signal { () async throws(SearchError) -> [String] in try await typedSearch("") }
        do {
            _ = try await typed.firstValue()
            XCTFail("the typed signal did not fail")
        } catch {
            XCTAssertEqual(error, SearchError())
        }

        let mapped: Signal<[String], SearchError> = Signal { try await search("rac") }.mapError { _ in SearchError() }
        let mappedValue = try await mapped.firstValue()
        XCTAssertEqual(mappedValue, ["rac", "rac!"])

        // Inside an operator whose failure is `Never`, the untyped signal's errors are handled
        // first: here by a value in their place.
        let answers = await Signal<String, Never>.return("signal").concat(.return(""))
            .flattenMap { query in
                Signal { () async throws -> [String] in
                    if query.isEmpty { throw SearchError() }
                    return try await search(query)
                }.catch { _ in .return([]) }
            }
            .allValues()
        XCTAssertEqual(answers.count, 2)
        XCTAssertTrue(answers.contains(["signal", "signal!"]))
        XCTAssertTrue(answers.contains([]))
    }

    // MARK: One import

    /// Every module's API through `import ReactiveCocoaSwift` alone.
    func testUmbrella_bringsEveryModule() {
        let scheduler = TestScheduler()                                     // Schedulers
        let subject = ReplaySubject<Int, Never>()                           // Subjects
        let disposables = CompoundDisposable()                              // Disposables
        let tuple = Tuple(1, "one")                                         // Tuples
        let list = LazyList([1, 2])                                         // Sequences
        let command = Command<Int, Int, Never> { .return($0) }              // Command
        let heard = ObservableValue<[Int]>([])                              // Subjects
        disposables.add(subject.deliver(on: scheduler).subscribe(next: { value in heard.value.append(value) }))
        subject.sendNext(tuple.count + list.array.count)
        scheduler.run()
        XCTAssertEqual(heard.value, [4])
        XCTAssertTrue(command.enabled.first() ?? false)
        disposables.dispose()
    }
}
