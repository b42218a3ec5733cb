/// A decoded ATT PDU: the typed body of its event (not yet filled: the layer still builds a `legacy` body).
public struct ATTEvent: Sendable {
    public var kind: EventKind { .att }
}
