/// The layers that decode what travels over a connection's fixed L2CAP channels, and the summaries built
/// from the attribute values the dissectors decode.
public enum ConnectionLayers {
    public static func make(_ options: DecodeOptions) -> [AnalysisLayer] {
        let att = ATTLayer(options: options)
        let signaling = SignalingLayer(att: att)
        return [att, signaling, signaling.a2dp, signaling.hid, SMPLayer(), BatteryHistoryLayer(att: att), IdentityLayer(att: att),
                ANCSViewLayer(att: att)]
    }
}
