import Disposables

extension Signal where Failure == Never {
    /// Binds the property at `keyPath` of `object` to this signal: each value is written there,
    /// on the thread that delivers it, in order.
    ///
    /// `object` is held weakly. The binding ends, disposing the source's subscription, when the
    /// signal completes, when the returned disposable is disposed, or when `object` has gone:
    /// that is noticed at the next value at the latest (which is then not written anywhere),
    /// since nothing tells a Swift object's watchers that it is going.
    ///
    /// Values are written wherever the signal sends them, so `object` must be safe to write from
    /// those threads (it is `Sendable`). For a `@MainActor` object, or a property that is other
    /// main-actor state, use ``assignOnMainActor(to:on:file:line:)``, which writes on the main actor. The
    /// compiler cannot point there itself: given such an object, it reports that the key path (or
    /// the object) is not `Sendable`, not this method's name.
    ///
    /// ```swift
    /// let label = ObservableValue("")      // from Subjects
    /// let binding = names.assign(to: \.value, on: label)
    /// // label.value follows names until names completes, label goes, or binding is disposed
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property to write.
    ///   - object: The object that holds it; held weakly.
    ///   - file: Where the binding is made, for ``SignalDiagnostics/liveSubscriptions``; leave it
    ///     to its default.
    ///   - line: The line of `file`; leave it to its default.
    /// - Returns: A disposable that ends the binding.
    ///
    /// RAC 2.5: `-setKeyPath:onObject:` and `RAC(object, keyPath) = signal`, which assert that the
    /// signal never fails; here `Failure == Never` says so. RAC's `nilValue:` has no counterpart:
    /// a property that can hold `nil` is typed optional, and the signal's values are of that type.
    @discardableResult
    public func assign<Root: AnyObject & Sendable>(
        to keyPath: ReferenceWritableKeyPath<Root, Value> & Sendable,
        on object: Root,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        take(while: { [weak object] _ in object != nil })
            .subscribe(next: { [weak object] value in object?[keyPath: keyPath] = value }, file: file, line: line)
    }
}

extension Signal where Failure == Never, Value: Sendable {
    /// Binds the property at `keyPath` of a main-actor `object` to this signal: each value is
    /// written there on the main actor, in order.
    ///
    /// Delivery is ``subscribeOnMainActor(next:error:completed:file:line:)``'s, and so is the subscription,
    /// made from the main actor, where this method is called. `object` is held weakly; the
    /// binding ends, disposing the source's subscription, when the signal completes, when the
    /// returned disposable is disposed, or when `object` has gone, noticed at the next value at
    /// the latest.
    ///
    /// It must be called on the main actor: a key path to a main-actor property can be formed
    /// only there, and it is not `Sendable`, so ``assign(to:on:file:line:)`` does not take it.
    ///
    /// ```swift
    /// @MainActor final class ViewModel {
    ///     var title = ""
    ///     func bind(_ titles: Signal<String, Never>) -> Disposable {
    ///         titles.assignOnMainActor(to: \.title, on: self)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property to write.
    ///   - object: The object that holds it; held weakly.
    ///   - file: Where the binding is made, for ``SignalDiagnostics/liveSubscriptions``; leave it
    ///     to its default.
    ///   - line: The line of `file`; leave it to its default.
    /// - Returns: A disposable that ends the binding.
    ///
    /// RAC 2.5: `RAC(object, keyPath) = [signal deliverOnMainThread]`.
    @MainActor @discardableResult
    public func assignOnMainActor<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Value>,
        on object: Root,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Disposable {
        // The closure ends the subscription through `binding`, set just after it is made; the
        // subscription itself is returned, so that it reads disposed once the signal completes.
        let binding = SerialDisposable()
        let subscription = subscribeNextOnMainActor({ [weak object] value in
            guard let object else { return binding.dispose() }
            object[keyPath: keyPath] = value
        }, file: file, line: line)
        binding.disposable = subscription
        return subscription
    }
}
