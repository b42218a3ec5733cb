/// A decoded LE signaling command: the typed body of its event (not yet filled: the layer still builds a `legacy` body).
public struct SignalingBody: Sendable {
    public var kind: EventKind { .signaling }
}
