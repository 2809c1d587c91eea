import Signals

/// What an iterator-backed list's nodes share: the iterator, advanced once per node.
///
/// No lock: a node's step runs only once its previous node has been evaluated (the node did not
/// exist before), so the steps that advance the iterator run one after the other, each ordered
/// after the last by the previous node's publication (its release store) and its lock.
@usableFromInline
final class IteratorSource<Iterator: IteratorProtocol>: @unchecked Sendable {
    @usableFromInline var iterator: Iterator

    @inlinable
    init(_ iterator: Iterator) {
        self.iterator = iterator
    }
}

extension LazyList {
    /// A list of the elements `iterator` gives, pulled once each, when the list is walked that far,
    /// and memoised: walking the list again does not touch the iterator. The iterator is consumed.
    ///
    /// RAC 2.5: `NSEnumerator -rac_sequence`.
    @inlinable
    public convenience init<Iterator: IteratorProtocol>(iterator: Iterator) where Iterator.Element == Element {
        self.init(iterator: iterator, eager: false)
    }

    /// A list of the elements of `elements`, in its order, pulled lazily from one iterator made now.
    ///
    /// ```swift
    /// LazyList(1...).map { $0 * 2 }   // 2, 4, 6, … (infinite)
    /// ```
    ///
    /// RAC 2.5: `NSEnumerator -rac_sequence` and the other collection additions.
    @inlinable
    public convenience init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        self.init(iterator: elements.makeIterator(), eager: false)
    }

    @inlinable
    convenience init<Iterator: IteratorProtocol>(iterator: Iterator, eager: Bool) where Iterator.Element == Element {
        let stage = Stage<Element>("LazyList(iterator:)", dependency: nil) { upstream, stage, _ in
            let source = unsafeDowncast(upstream, to: IteratorSource<Iterator>.self)
            guard let element = source.iterator.next() else { return nil }
            return (element, LazyList(stage: stage, upstream: source, eager: eager))
        }
        self.init(stage: stage, upstream: IteratorSource(iterator), eager: eager)
    }
}

/// What a collection-backed list's nodes share: the collection and the index of the next element
/// to take, advanced once per node (ordered as `IteratorSource` is).
@usableFromInline
final class CollectionSource<Base: Collection>: @unchecked Sendable {
    @usableFromInline let base: Base
    @usableFromInline var index: Base.Index

    @inlinable
    init(_ base: Base) {
        self.base = base
        index = base.startIndex
    }
}

extension LazyList {
    /// A list of the elements of `elements`, in its order, pulled lazily (the collection is a
    /// value: later changes to the variable it came from do not show).
    ///
    /// ```swift
    /// LazyList([1, 2, 3]).map { $0 * 10 }.array   // [10, 20, 30]
    /// ```
    ///
    /// RAC 2.5: `NSArray -rac_sequence` (`RACArraySequence`) and the other collection additions.
    @inlinable
    public convenience init<Elements: Collection>(_ elements: Elements) where Elements.Element == Element {
        let stage = Stage<Element>(
            "LazyList(_:)",
            dependency: nil,
            { upstream, stage, _ in
                let source = unsafeDowncast(upstream, to: CollectionSource<Elements>.self)
                guard source.index != source.base.endIndex else { return nil }
                let element = source.base[source.index]
                source.base.formIndex(after: &source.index)
                return (element, LazyList(stage: stage, upstream: source))
            },
            snapshot: { upstream in
                let source = unsafeDowncast(upstream, to: CollectionSource<Elements>.self)
                let base = source.base
                var next = source.index
                return { burst in
                    // A local copy of the position: the captured one is boxed, and each access to
                    // it would be checked for exclusivity.
                    var index = next
                    defer { next = index }
                    return burst.send {
                        guard index != base.endIndex else { return nil }
                        defer { base.formIndex(after: &index) }
                        return base[index]
                    }
                }
            }
        )
        self.init(stage: stage, upstream: CollectionSource(elements))
    }
}

extension Sequence {
    /// A lazy list of this sequence's elements, pulled from one iterator made now (see
    /// ``LazyList/init(_:)-4yvji``).
    ///
    /// It serves every collection: `Array`; `Set` (in its iteration order); `String` (its
    /// `Character`s); ranges (`(1...).lazyList` is infinite); `Dictionary` (`(key, value)` pairs of
    /// the dictionary as it is now, a value), with `dictionary.keys.lazyList` and
    /// `dictionary.values.lazyList` for the keys and the values, in the same order; and `Tuple` (its
    /// members, `nil` holes included). For a bare iterator, use ``LazyList/init(iterator:)``.
    ///
    /// RAC 2.5: `-rac_sequence` on `NSArray`, `NSSet`, `NSOrderedSet`, `NSString`, `NSIndexSet`,
    /// `NSDictionary` (with `rac_keySequence`, `rac_valueSequence`) and `RACTuple`.
    @inlinable
    public var lazyList: LazyList<Element> {
        LazyList(self)
    }
}

extension IteratorProtocol {
    /// A lazy list of what this iterator gives, pulled once each, when the list is walked that
    /// far, and memoised (see ``LazyList/init(iterator:)``). The list consumes a copy of the
    /// iterator. (For an iterator that is also a `Sequence`, the `Sequence` form is used; the
    /// elements are the same.)
    ///
    /// RAC 2.5: `NSEnumerator -rac_sequence`.
    @_disfavoredOverload
    public var lazyList: LazyList<Element> {
        LazyList(iterator: self)
    }
}
