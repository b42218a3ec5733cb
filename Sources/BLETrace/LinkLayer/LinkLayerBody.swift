/// A decoded link-layer packet: the typed body of its event (not yet filled: the layer still builds a `legacy` body).
public struct LinkLayerBody: Sendable {
    public var kind: EventKind { .linkLayer }
}
