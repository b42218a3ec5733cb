/// The registered diagnosis rules, one list. A new rule is a file in `Rules/` and a line here.
public enum DiagnosisRules {
    public static func make() -> [DiagnosisRule] {
        [
            // Capture first: what it cannot show qualifies the rest.
            CaptureLimitsRule(),
            // Link
            LinkEndRule(), ParameterUpdateRule(), ReconnectLoopRule(), PeerRestartRule(), SupervisionTimeoutRule(), InterferenceRule(),
            SniffedLinkLossRule(), SniffedRejectRule(),
            // Security
            PairingRule(), EncryptionRule(), InsufficientSecurityRule(), WeakSecurityRule(),
            // GATT
            ATTErrorRule(), ServiceChangedRule(), ATTTimeoutRule(),
            // Controller
            ControllerResetRule(), CommandRejectedRule(), FlowControlStallRule(),
            // Classic
            ClassicPairingRule(), ChannelConfigurationRule(), AudioSetupRule(), HostStackRule(),
            // LE Audio
            IsochronousSetupRule(), IsochronousDataRule(), ASEOperationRule(),
            // Decoded audio (only in runs that add the audio layer)
            AudioStreamRule(),
        ]
    }
}
