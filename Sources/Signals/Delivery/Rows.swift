/// The rows of `zip` and `combineLatest`: one lane per input holds that input's values, typed, and
/// a ``RowMaker`` assembles a row (a tuple or an array) by having each lane write its value in
/// place, at its offset.
///
/// So a row costs no `Any`, no cast, and no allocation beyond the row itself (none for a tuple),
/// and the code that runs per value only ever needs the metadata of the lane's own type and of
/// the row's, which it reads from the objects at hand instead of looking them up.

/// One input's values, as the row maker sees them. Touched only by the owner of the operator's
/// delivery lock.
class Lane {
    /// Where this lane's value goes in a row, in bytes.
    final let offset: Int
    /// How many values wait (zip), or whether there is a latest value, 0 or 1 (combineLatest).
    @exclusivity(unchecked) final var count = 0
    /// Whether the input has completed.
    @exclusivity(unchecked) final var isCompleted = false

    init(offset: Int) {
        self.offset = offset
    }

    /// Writes this lane's value into `row` at ``offset``: the first waiting value, moved out, or
    /// a copy of the latest.
    func write(into row: UnsafeMutableRawPointer) {}

    /// Lets go of the values held.
    func removeAll() {}
}

/// A zip's lane: the values of one input waiting for partners, first in first out, in a ring
/// buffer of raw memory (no optional, so no generic metadata to look up per value).
final class QueueLane<Value>: Lane {
    private var storage: UnsafeMutablePointer<Value>
    private var capacity: Int
    @exclusivity(unchecked) private var head = 0
    /// Whether a value is one plain machine word (see ``isPlainWord(_:)``).
    private let isWord = isPlainWord(Value.self)

    /// The capacity a lane keeps when it empties.
    private static var retainedCapacity: Int { 1_024 }

    override init(offset: Int) {
        capacity = 4
        storage = .allocate(capacity: capacity)
        super.init(offset: offset)
    }

    deinit {
        removeAll()
        storage.deallocate()
    }

    func append(_ value: Value) {
        if count == capacity { grow() }
        (storage + ((head + count) & (capacity - 1))).initialize(to: value)
        count += 1
    }

    override func write(into row: UnsafeMutableRawPointer) {
        let slot = storage + head
        if isWord {
            (row + offset).storeBytes(of: UnsafeRawPointer(slot).load(as: UInt.self), as: UInt.self)
        } else {
            (row + offset).assumingMemoryBound(to: Value.self).initialize(to: slot.move())
        }
        head = (head + 1) & (capacity - 1)
        count -= 1
        if count == 0 {
            head = 0
            if capacity > Self.retainedCapacity { resize(to: 4) }
        }
    }

    override func removeAll() {
        while count > 0 {
            (storage + head).deinitialize(count: 1)
            head = (head + 1) & (capacity - 1)
            count -= 1
        }
        head = 0
    }

    /// Doubles the capacity (a power of two, so an index wraps with a mask), keeping the order.
    private func grow() {
        resize(to: capacity * 2)
    }

    private func resize(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Value>.allocate(capacity: newCapacity)
        for index in 0..<count {
            (grown + index).moveInitialize(from: storage + ((head + index) & (capacity - 1)), count: 1)
        }
        storage.deallocate()
        storage = grown
        capacity = newCapacity
        head = 0
    }
}

/// A combineLatest's (or a sample's) lane: the latest value of one input, if any.
final class LatestLane<Value>: Lane {
    private let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)

    deinit {
        removeAll()
        slot.deallocate()
    }

    /// Whether a value is one plain machine word (see ``isPlainWord(_:)``).
    private let isWord = isPlainWord(Value.self)

    /// Stores `value` as the latest.
    func store(_ value: Value) {
        if count == 0 || isWord {
            // A plain word needs no destroying: initializing over it is assigning.
            slot.initialize(to: value)
            count = 1
        } else {
            slot.pointee = value
        }
    }

    /// The latest value; there must be one.
    var latest: Value { slot.pointee }

    override func write(into row: UnsafeMutableRawPointer) {
        if isWord {
            (row + offset).storeBytes(of: UnsafeRawPointer(slot).load(as: UInt.self), as: UInt.self)
        } else {
            (row + offset).assumingMemoryBound(to: Value.self).initialize(to: slot.pointee)
        }
    }

    override func removeAll() {
        if count == 1 { slot.deinitialize(count: 1) }
        count = 0
    }
}

/// The lanes of a junction, kept by the junction's array and read here without reference
/// counting: a row is made on every value, and retaining each lane for it would cost more than
/// the lane's own work.
struct Lanes {
    private let references: UnsafeMutableBufferPointer<Unmanaged<Lane>>

    init(_ lanes: [Lane]) {
        references = .allocate(capacity: lanes.count)
        _ = references.initialize(from: lanes.map(Unmanaged.passUnretained))
    }

    var count: Int { references.count }

    /// Calls `body` with each lane, in order.
    @inline(__always)
    func forEach(_ body: (Lane) -> Void) {
        for reference in references {
            reference._withUnsafeGuaranteedRef(body)
        }
    }

    func deallocate() {
        references.deallocate()
    }
}

/// Whether values of type `T` are one plain machine word (an `Int`, a `Double`): no references,
/// nothing to do to copy or destroy one. Lanes move those as a word, since unspecialized generic
/// code would otherwise call the type's value witnesses for each.
func isPlainWord<T>(_: T.Type) -> Bool {
    _isPOD(T.self) && MemoryLayout<T>.size == MemoryLayout<UInt>.size
        && MemoryLayout<T>.alignment == MemoryLayout<UInt>.alignment
}

/// Assembles a row of type `Row` from lanes.
class RowMaker<Row> {
    /// Calls `body` with a row made of what each lane writes.
    func withRow(from lanes: Lanes, _ body: (Row) -> Void) {
        preconditionFailure("RowMaker is abstract")
    }
}

/// Rows that are tuples: the lanes write into one buffer the size of the tuple, from which the row
/// is moved out.
final class TupleRowMaker<Row>: RowMaker<Row> {
    private let buffer = UnsafeMutablePointer<Row>.allocate(capacity: 1)
    /// Whether a row needs nothing done to destroy it (a tuple of plain values).
    private let isPlain = _isPOD(Row.self)

    deinit {
        buffer.deallocate()
    }

    /// The row is lent to `body` where it was assembled, with no copy; a reentrant row waits for
    /// the junction's queue, so the buffer is never in use twice.
    override func withRow(from lanes: Lanes, _ body: (Row) -> Void) {
        let raw = UnsafeMutableRawPointer(buffer)
        lanes.forEach { $0.write(into: raw) }
        body(buffer.pointee)
        if !isPlain { buffer.deinitialize(count: 1) }
    }

    /// Where each element of the tuple `(repeat each V)` lies, in bytes: Swift lays a tuple out in
    /// order, each element at the next offset its alignment allows.
    static func offsets<each V>(of _: repeat (each V).Type) -> [Int] where Row == (repeat each V) {
        var offsets: [Int] = []
        var end = 0
        func place<T>(_: T.Type) {
            let alignment = MemoryLayout<T>.alignment
            let offset = (end + alignment - 1) / alignment * alignment
            offsets.append(offset)
            end = offset + MemoryLayout<T>.size
        }
        repeat place((each V).self)
        assert(end <= MemoryLayout<Row>.size, "tuple layout of \(Row.self) is not sequential")
        return offsets
    }
}

/// Rows that are arrays: the lanes write straight into the new array's storage.
final class ArrayRowMaker<Element>: RowMaker<[Element]> {
    /// The offset of the lane at `index`.
    static func offset(ofLaneAt index: Int) -> Int {
        index * MemoryLayout<Element>.stride
    }

    override func withRow(from lanes: Lanes, _ body: ([Element]) -> Void) {
        body([Element](unsafeUninitializedCapacity: lanes.count) { buffer, initialized in
            if let base = buffer.baseAddress {
                let raw = UnsafeMutableRawPointer(base)
                lanes.forEach { $0.write(into: raw) }
            }
            initialized = lanes.count
        })
    }
}

/// Subscribes one input of a ``RowJunction``, once every lane exists.
typealias Subscribe = (lane: Lane, start: () -> Void)

extension Signal {
    /// A signal whose subscriptions make a junction with `makeJunction`, then subscribe the
    /// inputs to it in order: `inputs[i]` makes the lane and the sink of input `i`, whose values
    /// go at `offsets[i]` in a row. How `zip` and `combineLatest` are built.
    static func joining<Junction: RowJunction<Value, Failure>>(
        _ makeJunction: @escaping (Sink<Value, Failure>) -> Junction,
        inputs: [(Junction, Int) -> Subscribe],
        offsets: [Int]
    ) -> Signal {
        let makeJunction = UncheckedSendable(makeJunction)
        let inputs = UncheckedSendable(inputs)
        return Signal(producer: { downstream in
            let junction = makeJunction.value(downstream)
            junction.subscribe(inputs.value.indices.map { inputs.value[$0](junction, offsets[$0]) })
            return junction.handOverSubscription()
        })
    }
}

/// A junction whose output is made of rows, one lane per input: zip's and combineLatest's.
class RowJunction<Row, Failure: Error>: Junction<Row, Failure>, @unchecked Sendable {
    private let rows: RowMaker<Row>
    /// The lanes, owned here.
    private var laneObjects: [Lane] = []
    /// The same lanes, for the hot path.
    private(set) final var lanes = Lanes([])

    init(_ downstream: Sink<Row, Failure>, rows: RowMaker<Row>) {
        self.rows = rows
        // Attached once the lanes exist: a disposal from another thread reads them.
        super.init(downstream, attachesAtOnce: false)
    }

    deinit {
        lanes.deallocate()
    }

    /// Subscribes the inputs in order, until the result ends; none completes it at once.
    ///
    /// The lanes are made before the downstream sink is attached, so before any other thread can
    /// reach the junction (a disposal ends it by reading them).
    final func subscribe(_ inputs: [Subscribe]) {
        laneObjects = inputs.map(\.lane)
        lanes.deallocate()
        lanes = Lanes(laneObjects)
        didMakeLanes()
        attachDownstream()
        if inputs.isEmpty { run { [self] in complete() } }
        for input in inputs where !isClosed {
            input.start()
        }
    }

    /// Called once the lanes exist, before any input is subscribed.
    func didMakeLanes() {}

    /// Calls `body` with a row of what each lane writes. As the owner.
    @inline(__always)
    final func withRow(_ body: (Row) -> Void) {
        rows.withRow(from: lanes, body)
    }

    override final func didEnd() {
        lanes.forEach { $0.removeAll() }
    }
}
