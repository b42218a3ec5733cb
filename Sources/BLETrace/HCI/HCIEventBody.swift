/// A decoded HCI event: the typed body of its event (not yet filled: the layer still builds a `legacy` body).
public struct HCIEventBody: Sendable {
    public var kind: EventKind { .hciEvent }
}
