import Disposables
import Signals

extension ObservableValue {
    /// Makes the cell take every value `signal` sends, in order, on the thread that sends it.
    ///
    /// The cell is held weakly. The binding ends, disposing the subscription to `signal`, when
    /// `signal` completes, when the returned disposable is disposed, or when the cell goes (at
    /// once: the cell's ``channel`` completes as it goes).
    ///
    /// ```swift
    /// let status = ObservableValue("idle")
    /// status.bind(from: download.statusTexts)
    /// ```
    ///
    /// - Parameter signal: The values to take; one that cannot fail, as a binding asserts in RAC.
    /// - Returns: A disposable that ends the binding.
    ///
    /// RAC 2.5: `RAC(object, keyPath) = signal`.
    @discardableResult
    public func bind(from signal: Signal<Value, Never>) -> Disposable {
        signal.take(until: channel.ignoreValues()).assign(to: \.value, on: self)
    }

    /// Makes the property at `keyPath` of `object` follow the cell: the current value at once,
    /// then every change, written on the thread that changes the cell.
    ///
    /// `object` is held weakly: the binding ends, disposing its subscription, when the returned
    /// disposable is disposed or when `object` has gone, which is noticed at the cell's next
    /// change at the latest. The binding does not keep the cell, and it ends as the cell goes.
    ///
    /// ```swift
    /// let progress = ObservableValue(0.0)
    /// progress.bind(to: \.value, on: otherCell)   // for a cell, bind(to:) says it shorter
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property to write.
    ///   - object: The object that holds it; held weakly.
    /// - Returns: A disposable that ends the binding.
    ///
    /// RAC 2.5: `RAC(object, keyPath) = RACObserve(cell, value)`.
    @discardableResult
    public func bind<Root: AnyObject & Sendable>(
        to keyPath: ReferenceWritableKeyPath<Root, Value> & Sendable,
        on object: Root
    ) -> Disposable {
        untilGone.assign(to: keyPath, on: object)
    }

    /// Makes `other` follow this cell: its value is set to this cell's current value at once,
    /// then to every change, on the thread that changes this cell.
    ///
    /// Neither cell is kept; the binding ends when the returned disposable is disposed or when
    /// either cell goes (at once: a cell's ``channel`` completes as it goes). The binding runs one way:
    /// binding two cells to each other this way sets them back and forth forever (the second
    /// `bind` never returns); bind their ``channel``s for a two-way binding. Binding a cell to
    /// itself stops the program with a message saying so.
    ///
    /// ```swift
    /// let source = ObservableValue(1)
    /// let mirror = ObservableValue(0)
    /// source.bind(to: mirror)   // mirror.value == 1
    /// source.value = 2          // mirror.value == 2
    /// ```
    ///
    /// - Parameter other: The cell to set; held weakly.
    /// - Returns: A disposable that ends the binding.
    ///
    /// RAC 2.5: `RAC(other, value) = RACObserve(self, value)`.
    @discardableResult
    public func bind(to other: ObservableValue<Value>) -> Disposable {
        checkInput(other !== self, "ObservableValue.bind(to:) needs another cell than the one bound, got the cell itself: it would set itself forever")
        return other.bind(from: untilGone)
    }

    /// ``signal``, completing as the cell goes (its ``channel`` completes then), so that the
    /// bindings out of the cell end with it. Does not keep the cell.
    private var untilGone: Signal<Value, Never> {
        signal.take(until: channel.ignoreValues())
    }
}
