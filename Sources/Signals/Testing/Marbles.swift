import Disposables

/// A marble diagram: which events happen in which frame of virtual time, parsed from text such as
/// `"-a-b--c|"` and rendered back to it.
///
/// The grammar, one character per frame:
///
/// | text | meaning |
/// |---|---|
/// | `-` | a frame in which nothing happens |
/// | a letter or digit | a value, looked up in a table where a signal is made from the diagram |
/// | `\|` | completion |
/// | `#` | an error |
/// | `(ab)` | a group: the events inside happen in the same frame, in order; the whole group takes **one** frame |
/// | `^` | frame zero of a hot signal; it takes no frame itself: in `"a^b"`, `a` is at frame -1 and `b` at frame 0 |
/// | space | ignored, so that diagrams can be lined up |
///
/// Without `^`, the first character is frame 0. A group taking one frame, rather than one frame
/// per character as in RxJS, means that every diagram of events on whole frames can be written,
/// so rendering and parsing are exact inverses: `Marbles(marbles.description) == marbles`.
/// Columns line up between two diagrams except after a group; ``MarbleMismatch`` pads the
/// frames of the two it prints so that they do line up.
///
/// Nothing may follow `|` or `#` but `-` (time that passes once the signal has ended, dropped when
/// parsing) and `^` (a hot signal that ended before frame zero: `"-a|-^"`). Malformed text (an unknown character, a group that is empty, nested or unclosed, a
/// second `^`, an event after the end) is a ``MarbleSyntaxError`` from ``init(parsing:)``;
/// everywhere else it stops the program with a message naming the function, the text and the
/// offset.
///
/// ```swift
/// let marbles = Marbles("-a-(bc)--|")
/// marbles.marks.map { "\($0.symbol)@\($0.frame)" }   // ["a@1", "b@3", "c@3", "|@6"]
/// marbles.description                                  // "-a-(bc)--|"
/// ```
///
/// Rendered recordings use two more characters, which a diagram to parse may not contain: `?` for
/// a value missing from the table, and `!` for an event between two frames (see
/// ``SignalRecording/marbles(values:frame:)``).
///
/// RAC 2.5 has none; new, after RxJS's and RxSwift's marble tests.
public struct Marbles: Hashable, Sendable, CustomStringConvertible {
    /// One event of a diagram: its frame and the character that stands for it.
    public struct Mark: Hashable, Sendable {
        /// The frame: the number of frames after frame zero (negative before a hot signal's `^`).
        public var frame: Int
        /// The character: a value's letter or digit, `|` or `#`.
        public var symbol: Character

        /// A mark of `symbol` at `frame`.
        public init(frame: Int, symbol: Character) {
            self.frame = frame
            self.symbol = symbol
        }

        /// Whether the mark ends the signal (`|` or `#`).
        public var isTerminal: Bool {
            symbol == "|" || symbol == "#"
        }
    }

    /// The events, by frame, and in order within a frame.
    public let marks: [Mark]

    /// Whether the text had a `^`, or a mark comes before frame zero.
    public let hasZeroMarker: Bool

    /// Parses `diagram`, stopping the program with a message that names the offset of the first
    /// mistake when it is malformed.
    ///
    /// - Parameter diagram: A marble diagram, as described on ``Marbles``.
    public init(_ diagram: String) {
        do {
            self = try Marbles(parsing: diagram)
        } catch {
            badInput("Marbles(_:): \(error)")
        }
    }

    /// Parses `diagram`, throwing an error that names the offset of the first mistake when it is
    /// malformed.
    ///
    /// - Parameter diagram: A marble diagram, as described on ``Marbles``.
    /// - Throws: ``MarbleSyntaxError``.
    public init(parsing diagram: String) throws(MarbleSyntaxError) {
        var parser = Parser(diagram: diagram)
        try parser.parse()
        let zero = parser.zeroFrame ?? 0
        marks = parser.marks.map { Mark(frame: $0.frame - zero, symbol: $0.symbol) }
        hasZeroMarker = parser.zeroFrame != nil
    }

    /// A diagram of `marks`, for rendering; they must be in frame order.
    package init(marks: [Mark]) {
        self.marks = marks
        hasZeroMarker = marks.contains { $0.frame < 0 }
    }

    /// The diagram as text: one character per frame from the first mark (or frame zero, if
    /// earlier) to the last (or to `^`, if later), `(…)` around the marks that share a frame, and
    /// `^` before frame zero when a mark comes earlier or the text had one.
    public var description: String {
        // A diagram with `^` runs through frame -1 at least, so that the frames between its last
        // mark and `^` are drawn.
        let last = marks.last?.frame ?? -1
        return cells(through: hasZeroMarker ? max(last, -1) : last).joined()
    }

    /// The range of frames the text of this diagram spans.
    package var frames: ClosedRange<Int> {
        let first = min(marks.first?.frame ?? 0, 0)
        return first...max(marks.last?.frame ?? -1, first)
    }

    /// The text of each frame from `first` (by default the start of ``frames``) through `last`:
    /// `-`, a symbol or a group. Frame zero's cell starts with `^` where the diagram has one, and
    /// such a diagram that ends before frame zero gets a last cell `^`.
    package func cells(from first: Int? = nil, through last: Int) -> [String] {
        let start = first ?? frames.lowerBound
        guard start <= last else { return hasZeroMarker ? ["^"] : [] }
        var cells = Array(repeating: "-", count: last - start + 1)
        var index = marks.startIndex
        while index < marks.endIndex {
            let frame = marks[index].frame
            var end = index + 1
            while end < marks.endIndex, marks[end].frame == frame { end += 1 }
            let symbols = String(marks[index..<end].map(\.symbol))
            if (start...last).contains(frame) {
                cells[frame - start] = end - index == 1 ? symbols : "(\(symbols))"
            }
            index = end
        }
        if hasZeroMarker, (start...last).contains(0) {
            cells[-start] = "^" + cells[-start]
        }
        // A diagram that ends before frame zero still shows where zero is.
        if hasZeroMarker, last < 0 { cells.append("^") }
        return cells
    }
}

/// What is wrong with a marble diagram, and where.
///
/// RAC 2.5 has none; new.
public struct MarbleSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The diagram as given.
    public let diagram: String
    /// The offset, in characters from 0, of the character at fault (the diagram's length when
    /// something is missing at its end).
    public let offset: Int
    /// What is wrong, for people.
    public let reason: String

    /// `reason` at offset `offset` of `"diagram"`.
    public var description: String {
        "\(reason) at offset \(offset) of marble diagram \"\(diagram)\""
    }
}

extension Marbles {
    /// Reads a diagram, one character at a time; frames count from the first character.
    private struct Parser {
        let diagram: String
        var marks: [(frame: Int, symbol: Character)] = []
        var zeroFrame: Int?
        private var frame = 0
        private var groupStart: Int?
        private var terminalOffset: Int?

        init(diagram: String) {
            self.diagram = diagram
        }

        mutating func parse() throws(MarbleSyntaxError) {
            for (offset, character) in diagram.enumerated() {
                switch character {
                case " ":
                    continue
                case "-":
                    try notInGroup(character, at: offset)
                    frame += 1
                case "(":
                    try notInGroup(character, at: offset)
                    groupStart = offset
                case ")":
                    guard let start = groupStart else { throw error("')' without '('", at: offset) }
                    guard marks.last.map({ $0.frame == frame }) == true else {
                        throw error("empty group", at: start)
                    }
                    groupStart = nil
                    frame += 1
                case "^":
                    try notInGroup(character, at: offset)
                    guard zeroFrame == nil else { throw error("a second '^'", at: offset) }
                    zeroFrame = frame
                case "|", "#":
                    try event(character, at: offset)
                    terminalOffset = offset
                case _ where character.isLetter || character.isNumber:
                    try event(character, at: offset)
                default:
                    throw error("unknown character '\(character)' (use '-', a letter or digit, '|', '#', '(', ')', '^' or a space)", at: offset)
                }
            }
            if let groupStart { throw error("group '(' never closed", at: groupStart) }
        }

        private mutating func event(_ symbol: Character, at offset: Int) throws(MarbleSyntaxError) {
            if let terminalOffset {
                throw error("'\(symbol)' after the end ('\(diagram[diagram.index(diagram.startIndex, offsetBy: terminalOffset)])' at offset \(terminalOffset))", at: offset)
            }
            marks.append((frame, symbol))
            if groupStart == nil { frame += 1 }
        }

        private func notInGroup(_ character: Character, at offset: Int) throws(MarbleSyntaxError) {
            if groupStart != nil { throw error("'\(character)' inside a group", at: offset) }
        }

        private func error(_ reason: String, at offset: Int) -> MarbleSyntaxError {
            MarbleSyntaxError(diagram: diagram, offset: offset, reason: reason)
        }
    }
}
