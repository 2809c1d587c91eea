import Disposables
import Foundation

/// How a recording differs from the marble diagram it was expected to match: the two diagrams,
/// lined up frame by frame, and the two lists of events with their exact times.
///
/// Made by ``SignalRecording/mismatch(expected:values:error:frame:)``, which returns `nil` when
/// the recording matches, so that a failed assertion prints both diagrams:
///
/// ```swift
/// XCTAssertNil(recording.mismatch(expected: "-a-b|", values: ["a": 1, "b": 2]))
/// #expect(recording.mismatch(expected: "-a-b|", values: ["a": 1, "b": 2]) == nil)
/// // expected: -a-b|
/// //   actual: -a--b|
/// // expected events: next(1) at 1.0 s, next(2) at 3.0 s, completed at 4.0 s
/// //   actual events: next(1) at 1.0 s, next(2) at 4.0 s, completed at 5.0 s
/// ```
///
/// RAC 2.5 has none; new.
public struct MarbleMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The expected diagram, padded with spaces to line up with ``actual``.
    public let expected: String
    /// The recording's diagram (see ``SignalRecording/marbles(values:frame:)``), padded to line up
    /// with ``expected``.
    public let actual: String
    /// The two diagrams, one above the other, then the two lists of events with their times.
    public let description: String
}

extension SignalRecording where Value: Equatable, Failure: Equatable {
    /// Compares the recording with a marble diagram: `nil` when it has exactly the diagram's events
    /// at exactly the diagram's times, else both diagrams and both event lists.
    ///
    /// The diagram fixes every time: the events of frame `k` are expected `k × frame` seconds after
    /// recording began (within a billionth of a frame, or `Date`'s rounding on a clock started far
    /// from the reference date), so a match asserts exact virtual times. Time after the last event
    /// is not compared: `"-a-|"` and `"-a-|--"` are the same diagram.
    ///
    /// ```swift
    /// let source = scheduler.createColdSignal("ab---|", values: ["a": 1, "b": 2], error: MyError.boom)
    /// let recording = scheduler.record(source.throttle(2, on: scheduler))
    /// scheduler.run()
    /// XCTAssertNil(recording.mismatch(expected: "---b-|", values: ["b": 2], error: MyError.boom))
    /// ```
    ///
    /// - Parameters:
    ///   - expected: The diagram expected (see ``Marbles``), without `^`.
    ///   - values: The value each letter or digit stands for, in `expected` and in the recording's
    ///     diagram.
    ///   - error: What `#` stands for.
    ///   - frame: The seconds of virtual time one character stands for; positive.
    /// - Returns: `nil` on a match, else the mismatch, whose description prints both.
    ///
    /// A malformed `expected`, a `^` in it, or a letter missing from `values` stops the program
    /// with a message naming this function, the diagram and the position, in release builds too.
    ///
    /// RAC 2.5 has none; new.
    public func mismatch(
        expected: String,
        values: [Character: Value] = [:],
        error: Failure,
        frame: TimeInterval = 1
    ) -> MarbleMismatch? {
        compare(expected, values: values, error: error, frame: frame, function: "SignalRecording.mismatch(expected:values:error:frame:)")
    }

    func compare(
        _ expected: String,
        values: [Character: Value],
        error: Failure?,
        frame: TimeInterval,
        function: String
    ) -> MarbleMismatch? {
        let expectedEvents = MarbleEvents(expected, values: values, error: error, frame: frame, function: function)
        checkInput(!expectedEvents.hasZeroMarker, "\(function): an expected diagram starts with the recording and has no '^', in marble diagram \"\(expected)\"")
        let wanted = expectedEvents.frames.flatMap { time, events in events.map { Recorded(time: time, event: $0) } }
        let actual = events
        let matches = wanted.count == actual.count && zip(wanted, actual).allSatisfy { wanted, actual in
            wanted.event == actual.event && abs(wanted.time - actual.time) <= tolerance(frame: frame, at: wanted.time)
        }
        if matches { return nil }

        let expectedDiagram = Marbles(expected)
        let actualDiagram = diagram(of: actual, frame: frame, symbols(for: values))
        var lines: [String]
        let top: String
        let bottom: String
        if let actualDiagram {
            (top, bottom) = Self.lineUp(expectedDiagram, actualDiagram)
            lines = ["expected: \(top)", "  actual: \(bottom)"]
        } else {
            top = expectedDiagram.description
            bottom = "(an event more than \(Self.frameLimit) frames after the start)"
            lines = ["expected: \(top)", "  actual: \(bottom)"]
        }
        func list(_ events: [Recorded<Value, Failure>]) -> String {
            events.isEmpty ? "none" : events.map(\.description).joined(separator: ", ")
        }
        lines.append("expected events: \(list(wanted))")
        lines.append("  actual events: \(list(actual))")
        return MarbleMismatch(expected: top, actual: bottom, description: lines.joined(separator: "\n"))
    }

    /// The two diagrams' text, each frame padded with spaces to the wider of the two, so that the
    /// frames line up one above the other; trailing spaces dropped.
    static func lineUp(_ top: Marbles, _ bottom: Marbles) -> (String, String) {
        var topCells = top.cells(from: 0, through: top.marks.last?.frame ?? -1)
        var bottomCells = bottom.cells(from: 0, through: bottom.marks.last?.frame ?? -1)
        for index in 0..<min(topCells.count, bottomCells.count) {
            let width = max(topCells[index].count, bottomCells[index].count)
            topCells[index] += String(repeating: " ", count: width - topCells[index].count)
            bottomCells[index] += String(repeating: " ", count: width - bottomCells[index].count)
        }
        func text(_ cells: [String]) -> String {
            String(cells.joined().reversed().drop { $0 == " " }.reversed())
        }
        return (text(topCells), text(bottomCells))
    }
}

extension SignalRecording where Value: Equatable, Failure == Never {
    /// Compares the recording of a signal that cannot fail with a marble diagram: `nil` when it
    /// has exactly the diagram's events at exactly the diagram's times, else both diagrams and
    /// both event lists.
    ///
    /// As ``mismatch(expected:values:error:frame:)``, for diagrams without `#`.
    ///
    /// ```swift
    /// XCTAssertNil(recording.mismatch(expected: "-a-b", values: ["a": 1, "b": 2]))
    /// ```
    ///
    /// - Parameters:
    ///   - expected: The diagram expected (see ``Marbles``), without `^` or `#`.
    ///   - values: The value each letter or digit stands for.
    ///   - frame: The seconds of virtual time one character stands for; positive.
    /// - Returns: `nil` on a match, else the mismatch, whose description prints both.
    ///
    /// RAC 2.5 has none; new.
    public func mismatch(
        expected: String,
        values: [Character: Value] = [:],
        frame: TimeInterval = 1
    ) -> MarbleMismatch? {
        compare(expected, values: values, error: nil, frame: frame, function: "SignalRecording.mismatch(expected:values:frame:)")
    }
}
