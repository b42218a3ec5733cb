/// A decoded SMP PDU: the typed body of its event (not yet filled: the layer still builds a `legacy` body).
public struct SMPBody: Sendable {
    public var kind: EventKind { .smp }
}
