/// A value the library hands between threads under its own serialization.
@usableFromInline
package struct UncheckedSendable<Value>: @unchecked Sendable {
    /// The value handed over.
    @usableFromInline package let value: Value

    /// Wraps `value`, which the caller promises to hand over under the library's serialization.
    @inlinable
    package init(_ value: Value) {
        self.value = value
    }
}
