/// A decoded capture note: the typed body of its event (not yet filled: the layer still builds a `legacy` body).
public struct NoteBody: Sendable {
    public var kind: EventKind { .note }
}
