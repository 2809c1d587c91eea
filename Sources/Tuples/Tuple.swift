import Foundation

/// An immutable, ordered, heterogeneous list of values that keeps `nil` holes.
///
/// `Tuple` is the Swift twin of RAC 2.5's `RACTuple`: signals such as `combineLatest` of an array
/// and `reduceEach` hand values around in tuples whose arity is known only at run time. Where the
/// arity is known statically, prefer a Swift tuple; `unpack(as:)` turns a `Tuple` into one, with
/// a ``TupleError`` rather than a crash when the shape is wrong.
///
/// ```swift
/// let tuple = Tuple("foo", 5, nil)
/// tuple.count          // 3
/// tuple[1] as? Int     // 5
/// tuple.third          // nil: a hole, not the end
/// let (s, n) = try Tuple("foo", 5).unpack(as: String.self, Int.self)   // ("foo", 5)
/// try tuple.unpack(as: String.self, Int.self)   // throws TupleError.countMismatch(expected: 2, actual: 3)
/// ```
///
/// RAC 2.5: `RACTuple`, `RACTuplePack`, `RACTupleUnpack`.
public struct Tuple {
    /// Every value of the tuple, in order; a hole is `nil`.
    ///
    /// RAC 2.5: `-allObjects`.
    public let values: [Any?]

    /// Makes a tuple of `values`, in order; `nil` arguments are kept as holes.
    ///
    /// RAC 2.5: `RACTuplePack(a, b)`, `+tupleWithObjects:`.
    public init(_ values: Any?...) {
        self.init(array: values)
    }

    /// Makes a tuple of the values of `array`, in order.
    ///
    /// - Parameters:
    ///   - array: The values.
    ///   - convertNullsToNils: When `true`, each `NSNull` becomes a `nil` hole.
    ///
    /// RAC 2.5: `+tupleWithObjectsFromArray:convertNullsToNils:`.
    public init(array: [Any?], convertNullsToNils: Bool = false) {
        values = array.map { value in
            let flat = flattenOptional(value)
            if convertNullsToNils, flat is NSNull { return nil }
            return flat
        }
    }

    /// Makes a tuple of statically typed values; optionals that are `nil` become holes.
    ///
    /// RAC 2.5: `+pack::`.
    public static func pack<each T>(_ value: repeat each T) -> Tuple {
        var array: [Any?] = []
        for element in repeat each value {
            array.append(element)
        }
        return Tuple(array: array)
    }

    /// The number of values, holes included.
    ///
    /// RAC 2.5: `count`.
    public var count: Int { values.count }

    /// The value at `index`; a hole is `nil`.
    ///
    /// - Precondition: `index` is in `0..<count`.
    ///
    /// RAC 2.5: `-objectAtIndex:` and `tuple[i]`, which return `nil` out of range; a Swift index
    /// out of range is a programmer error.
    public subscript(index: Int) -> Any? {
        check(
            values.indices.contains(index),
            "Tuple subscript: index \(index) is out of range for a tuple of \(values.count) values"
        )
        return values[index]
    }

    /// The first value, or `nil` when it is a hole or the tuple is shorter.
    ///
    /// RAC 2.5: `first`.
    public var first: Any? { value(at: 0) }
    /// The second value, or `nil` when it is a hole or the tuple is shorter.
    ///
    /// RAC 2.5: `second`.
    public var second: Any? { value(at: 1) }
    /// The third value, or `nil` when it is a hole or the tuple is shorter.
    ///
    /// RAC 2.5: `third`.
    public var third: Any? { value(at: 2) }
    /// The fourth value, or `nil` when it is a hole or the tuple is shorter.
    ///
    /// RAC 2.5: `fourth`.
    public var fourth: Any? { value(at: 3) }
    /// The fifth value, or `nil` when it is a hole or the tuple is shorter.
    ///
    /// RAC 2.5: `fifth`.
    public var fifth: Any? { value(at: 4) }
    /// The last value, or `nil` when it is a hole or the tuple is empty.
    ///
    /// RAC 2.5: `last`.
    public var last: Any? { value(at: values.count - 1) }

    /// A tuple with `value` appended.
    ///
    /// RAC 2.5: `-tupleByAddingObject:`.
    public func adding(_ value: Any?) -> Tuple {
        Tuple(array: values + [value])
    }

    /// The values as a typed Swift tuple.
    ///
    /// A type that is `Optional` accepts a hole; any other type rejects it, `Any` and `AnyObject`
    /// included (ask for `Any?` or `AnyObject?` to accept one).
    ///
    /// ```swift
    /// let (name, age) = try Tuple("Ada", 36).unpack(as: String.self, Int.self)
    /// ```
    ///
    /// - Throws: ``TupleError/countMismatch(expected:actual:)`` when the tuple does not have one
    ///   value per type; ``TupleError/typeMismatch(index:expected:actual:)`` naming the first value
    ///   that is not of its type.
    ///
    /// RAC 2.5: `RACTupleUnpack(NSString *s, NSNumber *n) = tuple`.
    public func unpack<each T>(as type: repeat (each T).Type) throws(TupleError) -> (repeat each T) {
        var expectedCount = 0
        for _ in repeat each type { expectedCount += 1 }
        guard expectedCount == values.count else {
            throw .countMismatch(expected: expectedCount, actual: values.count)
        }
        var index = 0
        func cast<U>(_: U.Type) throws(TupleError) -> U {
            defer { index += 1 }
            // A hole is `Optional.none`, which a cast to `Any` or `AnyObject` would wrap as a value
            // (boxed, or as an `NSNull`-like object): only an `Optional` type takes it.
            if values[index] != nil || U.self is any OptionalFlattening.Type, let typed = values[index] as? U {
                return typed
            }
            throw .typeMismatch(
                index: index,
                expected: String(describing: U.self),
                actual: values[index].map { String(describing: Swift.type(of: $0)) } ?? "nil"
            )
        }
        return (repeat try cast(each type))
    }

    private func value(at index: Int) -> Any? {
        values.indices.contains(index) ? values[index] : nil
    }
}

/// Why ``Tuple/unpack(as:)`` could not give the typed tuple asked for.
public enum TupleError: Error, Equatable, CustomStringConvertible {
    /// The tuple has `actual` values but `expected` types were given.
    case countMismatch(expected: Int, actual: Int)
    /// The value at `index` is of type `actual` (`"nil"` for a hole), not `expected`.
    case typeMismatch(index: Int, expected: String, actual: String)

    /// A sentence naming what was wrong, for logs and test failures.
    public var description: String {
        switch self {
        case let .countMismatch(expected, actual):
            "Tuple.unpack: expected \(expected) values, the tuple has \(actual)"
        case let .typeMismatch(index, expected, actual):
            "Tuple.unpack: the value at index \(index) is \(actual), not \(expected)"
        }
    }
}

extension Tuple: Sequence {
    /// Iterates the values in order, holes included as `nil`.
    ///
    /// RAC 2.5: `NSFastEnumeration`.
    public func makeIterator() -> IndexingIterator<[Any?]> {
        values.makeIterator()
    }

    /// The number of values, holes included.
    public var underestimatedCount: Int { values.count }
}

extension Tuple: Equatable, Hashable {
    /// Two tuples are equal when they have the same count and their values are pairwise equal:
    /// two holes, two `Hashable` values that compare equal as `AnyHashable`, or the same object.
    ///
    /// RAC 2.5: `-isEqual:`.
    public static func == (lhs: Tuple, rhs: Tuple) -> Bool {
        lhs.values.count == rhs.values.count
            && zip(lhs.values, rhs.values).allSatisfy(valuesAreEqual)
    }

    /// Hashes the count and each value: `Hashable` values by value, objects by identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values.count)
        for value in values {
            switch value {
            case nil: hasher.combine(0)
            case let hashable as AnyHashable: hasher.combine(hashable)
            case let value? where type(of: value) is AnyClass: hasher.combine(ObjectIdentifier(value as AnyObject))
            // Other values equal nothing (see ==), so any hash is consistent with equality.
            case .some: hasher.combine(1)
            }
        }
    }
}

extension Tuple: CustomStringConvertible {
    /// `(foo, 5, nil)`.
    public var description: String {
        "(" + values.map { $0.map { String(describing: $0) } ?? "nil" }.joined(separator: ", ") + ")"
    }
}

private func valuesAreEqual(_ lhs: Any?, _ rhs: Any?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil):
        return true
    case let (left as AnyHashable, right as AnyHashable):
        return left == right
    case let (left?, right?):
        return type(of: left) is AnyClass && type(of: right) is AnyClass
            && (left as AnyObject) === (right as AnyObject)
    default:
        return false
    }
}

/// `Optional<Optional<X>>` and the like, seen as `Any?`, to a plain `Any?` (so `nil` is a hole).
private func flattenOptional(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any OptionalFlattening { return optional.flattened }
    return value
}

/// Stops the program with `message` when `condition` is false. Unlike a `precondition`, whose
/// message Swift drops in optimized builds, the message survives `-O`. (The other modules share
/// one such check; this module depends on none of them.)
@inline(__always)
private func check(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if _slowPath(!condition) { fatalError(message(), file: file, line: line) }
}

private protocol OptionalFlattening {
    var flattened: Any? { get }
}

extension Optional: OptionalFlattening {
    fileprivate var flattened: Any? {
        switch self {
        case .none: nil
        case .some(let wrapped): flattenOptional(wrapped)
        }
    }
}
