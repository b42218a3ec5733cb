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
        /// An LL_CONNECTION_UPDATE_IND waiting for its instant (the event counter it takes effect at), with its
        /// transmit window offset (1.25 ms units).
        var pendingUpdate: (interval: Int, latency: Int, timeout: Int, instant: Int, windowOffset: Int)?
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
        /// Retransmitted PDUs, empty PDUs, and PDUs with the MD (more data) flag set.
        var retransmissions = 0
        var empty = 0
        var moreData = 0
        /// Its connection events, payload and silences as the sniffer saw them.
        var events = ConnectionEvents()
        /// The CIG and CIS of the last LL_CIS_REQ, for the LL_CIS_IND that follows it.
        var pendingCIS: (cig: UInt8, cis: UInt8)?
        /// Its channel map, updates and packets outside it.
        var maps = ChannelMapHistory()
        /// What each side said it can send and receive (LL_LENGTH_REQ/RSP: max octets; central, peripheral),
        /// and the PHYs in use (HCI numbering: 1 1M, 2 2M, 3 coded) after LL_PHY_UPDATE_IND.
        var maxTxOctets: [Int?] = [nil, nil]
        var maxRxOctets: [Int?] = [nil, nil]
        var phy: (centralToPeripheral: UInt8, peripheralToCentral: UInt8)?
        /// Data length each way once both sides have spoken (central → peripheral, peripheral → central).
        var dataLength: (Int, Int)? {
            guard let ct = maxTxOctets[0], let pr = maxRxOctets[1], let pt = maxTxOctets[1], let cr = maxRxOctets[0] else { return nil }
            return (min(ct, pr), min(pt, cr))
        }
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
