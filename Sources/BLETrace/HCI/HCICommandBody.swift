/// A decoded HCI command: the typed body of its event (not yet filled: the layer still builds a `legacy` body).
public struct HCICommandBody: Sendable {
    public var kind: EventKind { .hciCommand }
}
