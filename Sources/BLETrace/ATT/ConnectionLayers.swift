/// The layers that decode what travels over a connection's fixed L2CAP channels.
public enum ConnectionLayers {
    public static func make(_ options: DecodeOptions) -> [AnalysisLayer] {
        let att = ATTLayer(options: options)
        return [att, LESignalingLayer(att: att), SMPLayer()]
    }
}
