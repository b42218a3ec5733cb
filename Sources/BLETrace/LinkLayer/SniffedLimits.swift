extension LinkLayerDecoder {
    /// What limits a sniffed link's throughput, from its control PDUs: each side's maximum octets
    /// (LL_LENGTH_REQ/RSP), the PHYs (LL_PHY_UPDATE_IND, 0 leaves a direction unchanged) and the channel map
    /// updates (LL_CHANNEL_MAP_IND; one with fewer than two channels, or whose instant is not ahead of the event
    /// it came in, is not applied). Returns why a map update was not applied.
    func sniffedLimits(_ d: LLControlPDU, _ dir: LLDirection, _ l: Link, record: Int, counter: Int?) -> LLControlPDU.NotApplied? {
        let side = dir == .centralToPeripheral ? 0 : 1
        switch d.parameters {
        case let .length(rxOctets, _, txOctets, _):
            l.maxTxOctets[side] = Int(txOctets)
            l.maxRxOctets[side] = Int(rxOctets)
        case let .phyUpdate(c, p, _):
            let old = l.phy ?? (1, 1)
            l.phy = (LinkLayerDecoder.hciPHY(c) ?? old.centralToPeripheral, LinkLayerDecoder.hciPHY(p) ?? old.peripheralToCentral)
        case let .channelMap(map, instant):
            guard ChannelMapHistory.bits(map).nonzeroBitCount >= 2 else { return .impossibleValues }
            if let now = counter, !LinkLayerDecoder.instantAhead(Int(instant), now: now) { return .instantPassed }
            l.maps.update(map, instant: instant, record: record)
        default:
            break
        }
        return nil
    }

    /// An LL PHY bit field (bit 0 1M, bit 1 2M, bit 2 coded) as an HCI PHY number, nil for none.
    static func hciPHY(_ bits: UInt8) -> UInt8? {
        if bits & 0x02 != 0 { return 2 }
        if bits & 0x04 != 0 { return 3 }
        if bits & 0x01 != 0 { return 1 }
        return nil
    }
}
