/// A strong reference that the owner of a ``DeliveryLock`` calls through without retaining it
/// for each call: the slot of the sink below a lock.
///
/// Loading a class reference from a variable and calling it costs a retain and a release (the
/// call might clear the variable), two atomic operations per event per hop. Here the reference
/// is kept by hand instead, and the rule that makes skipping them safe is the library's: only the
/// lock's owner calls through the slot or empties it, and ``take(retiring:)`` hands the object to
/// ``DeliveryContext/retire(_:)``, so that an object emptied out of its slot from inside one of
/// its own calls lives until that call has returned.
///
/// Its holder calls ``release()`` in its `deinit`.
package struct Retained<Object: AnyObject>: ~Copyable {
    private var reference: Unmanaged<Object>?

    @inline(__always)
    package init(_ object: Object) {
        reference = Unmanaged.passRetained(object)
    }

    /// Empties the slot, releasing the object now: for the holder's `deinit`, where nothing can
    /// be calling through the slot. (The slot has no `deinit` of its own: a generic one would look
    /// up the object's type metadata each time a holder goes away.)
    @inline(__always)
    package mutating func release() {
        reference?.release()
        reference = nil
    }

    /// Whether the slot is empty.
    package var isEmpty: Bool {
        @inline(__always) get { reference == nil }
    }

    /// Calls `body` with the object, without retaining it, unless the slot is empty. As the owner.
    @inline(__always)
    package func use(_ body: (Object) -> Void) {
        reference?._withUnsafeGuaranteedRef(body)
    }

    /// Empties the slot and returns the object, which the caller now holds strongly: for an owner
    /// that is not inside a delivery through its lock (it became the owner for this), so that
    /// none of the object's methods can be running on its stack.
    @inline(__always)
    package mutating func take() -> Object? {
        guard let reference else { return nil }
        self.reference = nil
        return reference.takeRetainedValue()
    }

    /// Empties the slot and returns the object, which the caller now holds strongly.
    ///
    /// The object is also retired in `context`: it is not released before this thread has left
    /// its outermost delivery, whatever the caller does with it.
    @inline(__always)
    package mutating func take(retiring context: DeliveryContext) -> Object? {
        guard let reference else { return nil }
        self.reference = nil
        let object = reference.takeRetainedValue()
        context.retire(object)
        return object
    }
}
