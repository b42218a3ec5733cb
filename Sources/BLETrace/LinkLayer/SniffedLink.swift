extension LinkLayerDecoder {
    /// What is known about one access address.
    final class Link {
        let accessAddress: UInt32
        let handle: UInt16?
        var connection: Connection?
        var crcInit: UInt32?
        var central: BDAddr?
        var centralType: AddressType?
        var peripheral: BDAddr?
        var peripheralType: AddressType?
        var connectRecord: Int?
        var interval: Int?
        var latency: Int?
        var timeout: Int?
        var encrypted = false
        /// LL_ENC_RSP seen: encryption starts unless the peripheral rejects it.
        var encryptionPending = false
        var encryptionRecord: Int?
        /// The capture holds these packets already decrypted (a plaintext LL_START_ENC_RSP was seen).
        var plaintextAfterEncryption = false
        var terminatedRecord: Int?
        var terminateReason: UInt8?
        var sides = [SideState(), SideState()]
        var lastTime: Int64 = .min
        var lastChannel: Int?
        var lastDirection: LLDirection = .peripheralToCentral
        var lastAirtime = 0
        var packets = 0
        var dataPDUs = 0
        var crcBad = 0
        /// Its connection events, payload and silences as the sniffer saw them.
        var events = ConnectionEvents()
        /// Per data channel (0–36): packets, bad CRCs, RSSI (made with the link's first packet on a known channel).
        var channels: [ChannelCounts]?

        func count(channel: Int, bad: Bool, rssi: Int?) {
            guard channel < 37 else { return }
            if channels == nil { channels = [ChannelCounts](repeating: ChannelCounts(), count: 37) }
            channels?[channel].add(bad: bad, rssi: rssi)
        }
        /// Sessions, keys and counters, made when the link first starts encryption.
        var encryptionState: LinkEncryption?
        var encryption: LinkEncryption {
            if let e = encryptionState { return e }
            let e = LinkEncryption()
            encryptionState = e
            return e
        }

        init(accessAddress: UInt32, handle: UInt16?) {
            self.accessAddress = accessAddress
            self.handle = handle
        }
    }
}
