/// Decodes sniffer records (pcap link types 251, 256, 272) into timeline events: the pseudo-header, the
/// advertising or data channel PDU, LL control procedures, and — through L2CAP reassembly per access
/// address — the same ATT, SMP and signaling decoders HCI captures use.
///
/// Connections are known by access address. Each gets a synthetic handle (1, 2, … in order of appearance)
/// and a `Connection` from the pipeline's tracker; a CONNECT_IND opens it with the peripheral (the
/// advertiser) as peer and the central as the local side. Data PDUs from the central are shown as
/// host → controller, those from the peripheral as controller → host, so ATT's client/server logic holds.
///
/// Direction of a data PDU: from the pseudo-header where it says (272 flags; 256 PDU type 2/3). Otherwise
/// inferred from timing: the central opens every connection event, and within an event the two sides take
/// turns about 150 µs apart. A packet on the same channel as the previous one of its access address, within
/// both packets' air time plus 650 µs, is the other side's answer; any other packet opens a new event and is
/// the central's. Such events carry `direction_inferred`.
public final class LinkLayerDecoder {
    unowned let pipeline: Pipeline
    var reassembler = L2CAPReassembler()

    struct SideState {
        var seen = false
        var sn: UInt8 = 0
        var nesn: UInt8 = 0
        var hash: UInt64 = 0
        var record = 0
        var time: Int64 = 0
        /// The other side has acknowledged `sn` (its NESN moved past it).
        var acked = false
        /// After that, the other side's NESN came back to `sn`: it received a newer PDU from this side (one the
        /// sniffer missed), so this side has moved on.
        var superseded = false
        /// The PDU carried L2CAP data (not an empty PDU, not a control PDU).
        var payload = false
    }

    var links: [UInt32: Link] = [:]
    /// Access addresses seen only with unchecked CRCs: the CRCInit their first packet proposed, and that packet's
    /// CRC value (a copy of the same packet agrees with it trivially).
    var proposedCRCInit: [UInt32: (initial: UInt32, crc: UInt32)] = [:]
    /// CIS access addresses announced by LL_CIS_IND: their stream (at most `maxCIS`).
    var cisStreams: [UInt32: (cig: UInt8?, cis: UInt8?, acl: UInt16?)] = [:]
    static let maxCIS = 64
    var linkOrder: [Link] = []
    var nextHandle: UInt16 = 1
    /// Extended advertising chains: ADI (DID and SID) → advertiser, for AUX_CHAIN_IND without AdvA.
    var chains: [Int: (BDAddr, AddressType)] = [:]
    /// Bounds on hostile input: access addresses with state, open chains.
    public static let maxLinks = 4096
    static let maxChains = 1024

    public struct Stats: Sendable {
        public var packets = 0
        public var advertising = 0
        public var data = 0
        public var control = 0
        public var empty = 0
        public var crcBad = 0
        public var crcBadRecords: [Int] = []
        public var crcUnchecked = 0
        public var retransmissions = 0
        public var encrypted = 0
        public var decrypted = 0
        public var micFailures = 0
        public var directionInferred = 0
        /// Per channel index (0–39), where the pseudo-header gives the channel: packets, bad CRCs, RSSI.
        public var channels = [ChannelCounts](repeating: ChannelCounts(), count: 40)
    }
    public private(set) var stats = Stats()

    /// The keys links can be decrypted with (the user's and those the capture distributes).
    lazy var ring = KeyRing(options: pipeline.options.keys)

    init(pipeline: Pipeline) {
        self.pipeline = pipeline
    }

    // MARK: Records

    func decode(_ r: Record, _ e: inout TraceEvent) {
        e.body = .pending(.linkLayer)
        stats.packets += 1
        let info: SnifferInfo, bytes: ArraySlice<UInt8>
        do {
            (info, bytes) = try SnifferHeader.parse(linkType: Int(r.sourceType), r.data)
        } catch {
            pipeline.markMalformed(&e, r, layer: "sniffer header", error)
            return
        }
        let sniffer = info.linkType != LinkType.bluetoothLELL ? info : nil
        let packet: LLPacket
        do {
            packet = try LLPacket.split(bytes)
        } catch {
            if sniffer != nil { e.radio = LinkLayerFacts(sniffer: sniffer) }
            pipeline.markMalformed(&e, r, layer: "LL packet", error)
            return
        }

        // Before version 3 the nRF Sniffer's packet ID does not say; the access address always does.
        let advertising = packet.isAdvertising

        // CRC: the sniffer's verdict, else computed where CRCInit is known.
        var crc = info.crc
        // A CIS's access address is no ACL link.
        let cisStream = advertising || cisStreams.isEmpty ? nil : cisStreams[packet.accessAddress]
        // A link is made from a data PDU only when its CRC is known good, or the sniffer keeps no CRC (the PDU fills
        // the packet exactly). With CRC bytes the sniffer did not check (a HackRF's), a packet on a new access
        // address only proposes its CRCInit, and the link is made when a later packet there checks with it; a
        // packet too short for the length its header claims is noise: neither makes a link.
        let noCRCKept = crc == .unchecked && packet.crc == nil && packet.trailing == 0
        var link = advertising || cisStream != nil ? nil : self.link(packet.accessAddress, create: crc == .good || noCRCKept)
        if link == nil, !advertising, cisStream == nil, crc == .unchecked, let value = packet.crc {
            link = confirmedLink(packet, value: value)
        }
        if crc == .unchecked, let value = packet.crc {
            let initial = advertising ? LLCRC.advertisingInit : link?.crcInit
            if let i = initial { crc = LLCRC.check(packet.pdu, initial: i, value: value) ? .good : .bad }
        }
        let facts = PacketFacts(accessAddress: packet.accessAddress, advertising: advertising, crc: crc, crcValue: packet.crc,
                                trailing: packet.trailing)
        if crc == .unchecked { stats.crcUnchecked += 1 }
        if let ch = info.channel, ch >= 0, ch < 40 {
            stats.channels[ch].add(bad: crc == .bad, rssi: info.rssi)
            link?.count(channel: ch, bad: crc == .bad, rssi: info.rssi)
        }
        if crc == .bad {
            stats.crcBad += 1
            if stats.crcBadRecords.count < 1000 { stats.crcBadRecords.append(r.number) }
            link?.crcBad += 1
            e.body = .linkLayer(LinkLayerBody(radio: LinkLayerFacts(sniffer: sniffer, packet: facts), .badCRC(pdu: packet.pdu)))
            if let l = link, let c = l.connection { e.handle = l.handle; e.connection = c.id }
            return
        }
        if let stream = cisStream {
            stats.data += 1
            decodeCIS(packet, info, sniffer, stream, &e)
        } else if advertising {
            stats.advertising += 1
            decodeAdvertising(r, packet, info, sniffer, facts, &e)
        } else if let l = link {
            stats.data += 1
            decodeData(r, packet, info, sniffer, facts, l, &e)
        } else {
            stats.data += 1
            e.body = .linkLayer(LinkLayerBody(radio: LinkLayerFacts(sniffer: sniffer, packet: facts), .untracked(pdu: packet.pdu)))
        }
    }

    /// An access address's first unchecked packet proposes a CRCInit; the next one that checks with it makes the
    /// link (bounded: `maxLinks` proposals at a time).
    func confirmedLink(_ packet: LLPacket, value: UInt32) -> Link? {
        let aa = packet.accessAddress
        if let proposed = proposedCRCInit[aa] {
            if proposed.crc == value { return nil } // the same packet again (a retransmission, or a copy)
            // Packets that check with the advertising CRCInit are advertising packets whose access address was
            // received with bit errors (0x8E89BE96 for 0x8E89BED6), not a link: a link's CRCInit is random.
            if proposed.initial == LLCRC.advertisingInit { return nil }
            if LLCRC.check(packet.pdu, initial: proposed.initial, value: value), links.count < LinkLayerDecoder.maxLinks {
                proposedCRCInit[aa] = nil
                let l = newLink(aa)
                l.crcInit = proposed.initial
                return l
            }
        }
        if proposedCRCInit.count >= LinkLayerDecoder.maxLinks { proposedCRCInit.removeAll(keepingCapacity: true) }
        proposedCRCInit[aa] = (LLCRC.initial(packet.pdu, value: value), value)
        return nil
    }

    func link(_ aa: UInt32, create: Bool) -> Link? {
        if let l = links[aa] { return l }
        guard create, links.count < LinkLayerDecoder.maxLinks else { return nil }
        return newLink(aa)
    }

    func newLink(_ aa: UInt32) -> Link {
        var handle: UInt16? = nil
        if nextHandle < 0x0F00 { handle = nextHandle; nextHandle += 1 }
        let l = Link(accessAddress: aa, handle: handle)
        links[aa] = l
        if linkOrder.count < LinkLayerDecoder.maxLinks { linkOrder.append(l) }
        return l
    }

    // MARK: Advertising channel

    func decodeAdvertising(_ r: Record, _ packet: LLPacket, _ info: SnifferInfo, _ sniffer: SnifferInfo?, _ facts: PacketFacts,
                           _ e: inout TraceEvent) {
        // The secondary advertising channels are 0–36. Legacy-only PDU types there mean the sniffer wrote a
        // placeholder channel, so only the PDU types shared with AUX_* names read the channel.
        let type = packet.pdu.first.map { $0 & 0x0F } ?? 0
        let secondary = (info.channel.map { $0 < 37 } ?? false) && (type == 3 || type == 5 || type == 7 || type == 8)
            && (info.linkType != LinkType.bluetoothLELLWithPHDR || info.auxType != nil || info.channel != 0)
        let pdu: LLAdvertisingPDU
        do {
            pdu = try LLAdvertisingPDU.parse(packet.pdu, secondary: secondary, auxType: info.auxType)
        } catch {
            e.radio = LinkLayerFacts(sniffer: sniffer, packet: facts)
            pipeline.markMalformed(&e, r, layer: "LL advertising PDU", error)
            return
        }
        let radio = LinkLayerFacts(sniffer: sniffer, packet: facts, advertising: pdu)
        let txType = pdu.txAdd ? AddressType.randomKind(pdu.advA ?? BDAddr(0)) : AddressType.public
        switch pdu.type {
        case 3:
            e.body = .linkLayer(LinkLayerBody(radio: radio, .advertising))
        case 5:
            e.body = .linkLayer(LinkLayerBody(radio: radio, .advertising))
            guard let k = pdu.connect, let adv = pdu.advA, let ini = pdu.initA else { return }
            let peripheralType = pdu.rxAdd ? AddressType.randomKind(adv) : .public
            let centralType = pdu.txAdd ? AddressType.randomKind(ini) : .public
            connect(k, central: ini, centralType: centralType, peripheral: adv, peripheralType: peripheralType, r, &e)
        default:
            guard let report = self.report(pdu, txType: txType, info: info) else {
                e.body = .linkLayer(LinkLayerBody(radio: radio, .advertising))
                return
            }
            // The advertising decoder makes the body (`adv`); the sniffer's layers go in front of it.
            e.radio = radio
            var body = AdvertisingBody(.linkLayer(StoredReport(report)))
            let chain = pipeline.chain
            pipeline.advertising.take(&body, record: r.number) { report in chain.advertised(report, record: r.number, at: r.timestamp) }
            e.body = .adv(body)
        }
    }

    /// An advertising report for the AD decoder and device inventory, for PDUs that carry advertising data.
    func report(_ pdu: LLAdvertisingPDU, txType: AddressType, info: SnifferInfo) -> AdvertisingReport? {
        var address = pdu.advA
        var addressType = txType
        var incomplete = false
        var sid: Int? = nil
        var connectable = pdu.type == 0 || pdu.type == 1
        var scannable = pdu.type == 0 || pdu.type == 6
        if let x = pdu.extended {
            // ADV_EXT_IND only points to the auxiliary packet; AUX_CONNECT_RSP carries no advertising data.
            guard pdu.type == 7, pdu.name != "ADV_EXT_IND" else { return nil }
            sid = x.sid
            connectable = x.advMode == 1
            scannable = x.advMode == 2
            incomplete = x.auxPtr != nil
            let key = ((x.did ?? 0) << 4) | (x.sid ?? 0)
            if address == nil, x.did != nil, let known = chains[key] {
                address = known.0
                addressType = known.1
            }
            if x.did != nil {
                if incomplete, let a = address, chains[key] != nil || chains.count < LinkLayerDecoder.maxChains {
                    chains[key] = (a, addressType)
                } else if !incomplete {
                    chains[key] = nil
                }
            }
        } else if ![0, 2, 4, 6].contains(pdu.type) {
            return nil
        }
        guard let a = address else { return nil }
        return AdvertisingReport(type: .linkLayer(pdu.type, auxType: Int8(clamping: pdu.auxType ?? -1)), connectable: connectable, scannable: scannable,
                                 scanResponse: pdu.type == 4 || pdu.name == "AUX_SCAN_RSP", address: a, addressType: addressType,
                                 rssi: info.rssi, txPower: pdu.extended?.txPower, data: pdu.advData, incomplete: incomplete,
                                 truncated: false, sid: sid, directAddress: pdu.targetA)
    }

    func connect(_ k: LLAdvertisingPDU.ConnectData, central: BDAddr, centralType: AddressType, peripheral: BDAddr,
                 peripheralType: AddressType, _ r: Record, _ e: inout TraceEvent) {
        // A CONNECT_IND starts a new connection even when its access address was seen before.
        guard links[k.accessAddress] != nil || links.count < LinkLayerDecoder.maxLinks else { return }
        let l = newLink(k.accessAddress)
        l.crcInit = k.crcInit
        l.central = central
        l.centralType = centralType
        l.peripheral = peripheral
        l.peripheralType = peripheralType
        l.connectRecord = r.number
        l.interval = k.interval
        l.latency = k.latency
        l.timeout = k.timeout
        l.maps.start(k.channelMap)
        guard let h = l.handle else { return }
        apply(.opened(handle: h, peer: peripheral, peerType: peripheralType, role: 0, interval: k.interval,
                      latency: k.latency, timeout: k.timeout, le: true), r)
        l.connection = pipeline.connections.existing(h)
        e.handle = h
        e.connection = l.connection?.id
    }

    func apply(_ change: ConnectionChange, _ r: Record) {
        pipeline.connections.apply(change, record: r.number, at: r.timestamp)
        pipeline.chain.connectionChanged(change, record: r.number, at: r.timestamp, pipeline)
    }

    // MARK: Data channel

    /// Air time in µs of a data PDU with `length` payload bytes (preamble, AA, header, payload, CRC). On the
    /// LE Coded PHY: 376 µs for preamble, access address, coding indicator and TERM1, then the PDU, CRC and
    /// TERM2 at 64 µs a byte for S=8 or 16 µs for S=2 (Core 5.4 Vol 6 Part B 2.2); S=8 when the indicator is unknown.
    static func airtime(_ length: Int, phy: Int?, coding: UInt8? = nil) -> Int {
        switch phy {
        case 1: return (2 + 4 + 2 + length + 3) * 4
        case 2: return coding == 1 ? 376 + (2 + length + 3) * 16 + 6 : 376 + (2 + length + 3) * 64 + 24
        default: return (1 + 4 + 2 + length + 3) * 8
        }
    }

    func decodeData(_ r: Record, _ packet: LLPacket, _ info: SnifferInfo, _ sniffer: SnifferInfo?, _ facts: PacketFacts, _ l: Link,
                    _ e: inout TraceEvent) {
        l.packets += 1
        var c = ByteCursor(packet.pdu)
        guard let b0 = try? c.u8(), let b1 = try? c.u8() else { return } // `split` guarantees the header
        let h = LLDataHeader(b0, b1)
        if h.md { l.moreData += 1 }
        if h.cp { _ = try? c.u8() }
        var payload = c.rest()

        // Direction.
        let air = LinkLayerDecoder.airtime(h.length, phy: info.phy, coding: info.codingIndicator)
        var dir: LLDirection
        if let d = info.direction {
            dir = d
        } else {
            // Timestamps are the file's: subtract without trapping on any value.
            let (delta, overflow) = (info.radioMicros ?? r.timestamp.micros).subtractingReportingOverflow(l.lastTime)
            let sameEvent = l.lastTime != .min && !overflow && delta >= 0 && delta <= Int64(l.lastAirtime + air + 650)
                && (info.channel == nil || info.channel == l.lastChannel)
            dir = sameEvent ? l.lastDirection.opposite : .centralToPeripheral
            stats.directionInferred += 1
        }
        let now = info.radioMicros ?? r.timestamp.micros
        let (gap, gapOverflow) = now.subtractingReportingOverflow(l.lastTime)
        let answers = l.lastTime != .min && !gapOverflow && gap >= 0 && gap <= Int64(l.lastAirtime + air + 650)
        l.events.packet(at: now, central: dir == .centralToPeripheral, newEvent: dir == .centralToPeripheral && !answers,
                        payload: Int(h.length), record: r.number, interval: l.interval,
                        update: l.pendingUpdate.map { ($0.instant, $0.interval, $0.windowOffset) })
        // The connection event counter: the nRF Sniffer's own, else counted from the CONNECT_IND's first event.
        var counter: Int? = l.connectRecord != nil ? l.events.counter : nil
        if case let .nordic(n) = info.header { counter = Int(n.eventCounter) }
        if let p = l.pendingUpdate, let now = counter, (now &- p.instant) & 0xFFFF < 0x8000 {
            // The instant reached: the new parameters hold from this event on.
            l.pendingUpdate = nil
            updateParameters(p.interval, p.latency, p.timeout, l, r)
        }
        if let ch = info.channel { l.maps.packet(channel: ch, counter: counter, record: r.number) }
        l.lastTime = now
        l.lastChannel = info.channel
        l.lastDirection = dir
        l.lastAirtime = air
        e.direction = dir.timelineDirection

        var radio = LinkLayerFacts(sniffer: sniffer, packet: facts,
                                   data: DataPDUFacts(header: h, direction: dir, inferred: info.direction == nil))
        func show(_ c: LinkLayerBody.Content) { e.body = .linkLayer(LinkLayerBody(radio: radio, c)) }

        let conn: Connection?
        if let existing = l.connection {
            conn = existing
        } else if let handle = l.handle {
            let c = pipeline.connections.connection(for: handle)
            l.connection = c
            conn = c
        } else {
            conn = nil
        }
        if let c = conn { e.handle = l.handle; e.connection = c.id }

        // Retransmission: the same SN and the same content from the same side, not yet acknowledged, or
        // acknowledged where the sender did not hear it: its NESN has not moved either (it received nothing new,
        // so it cannot have seen the acknowledgement, and must send the same PDU again), the other side has not
        // received a newer PDU from it since, and it comes at the next connection event at the latest. (Later,
        // the sniffer more likely missed whole connection events, after which the same values come round again.)
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        hash = (hash ^ UInt64(h.llid)) &* 0x100_0000_01B3
        hash = (hash ^ UInt64(h.length)) &* 0x100_0000_01B3
        for byte in payload { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let side = dir == .centralToPeripheral ? 0 : 1
        let s = l.sides[side]
        var retransmission = false
        if s.seen && s.sn == h.sn && s.hash == hash {
            // Within 1.5 connection intervals (of 1.25 ms); timestamps are the file's, so the gap may overflow.
            let gap = r.timestamp.micros.subtractingReportingOverflow(s.time)
            let nextEvent = l.interval.map { !gap.overflow && gap.partialValue <= Int64($0) * 1875 } ?? false
            retransmission = !s.acked || (s.nesn == h.nesn && !s.superseded && nextEvent)
        }
        if l.sides[1 - side].seen {
            if h.nesn != l.sides[1 - side].sn {
                let other = l.sides[1 - side]
                if !other.acked, other.payload, let c = conn, let handle = l.handle, pipeline.chain.readsSniffedAcks {
                    let waited = r.timestamp.micros.subtractingReportingOverflow(other.time)
                    if !waited.overflow, waited.partialValue >= 0 {
                        pipeline.chain.sniffedAck(connection: c.id, handle: handle, fromCentral: side == 1, after: waited.partialValue)
                    }
                }
                l.sides[1 - side].acked = true
            }
            else if l.sides[1 - side].acked { l.sides[1 - side].superseded = true }
        }
        if !retransmission {
            l.sides[side] = SideState(seen: true, sn: h.sn, nesn: h.nesn, hash: hash, record: r.number, time: r.timestamp.micros, acked: false,
                                      payload: h.length > 0 && h.llid != 3)
        }

        // Encryption.
        var encrypted = false
        if h.length > 0 {
            if let flag = info.encrypted {
                encrypted = flag && !info.decrypted
            } else if info.decrypted {
                encrypted = false
            } else if l.encrypted && !l.plaintextAfterEncryption {
                if h.llid == 3, h.length == 1, payload.first == 0x06 {
                    // A plaintext LL_START_ENC_RSP: whoever wrote the capture decrypted it.
                    l.plaintextAfterEncryption = true
                } else {
                    encrypted = true
                }
            } else if l.encryptionPending {
                let op = h.llid == 3 ? payload.first : nil
                encrypted = !(op == 0x05 || op == 0x0D || op == 0x11)
            }
        }

        if retransmission {
            stats.retransmissions += 1
            l.retransmissions += 1
            show(.retransmission(of: s.record))
            return
        }
        if encrypted {
            switch l.encryption.decrypt(payload, header: b0, direction: dir, inferred: info.direction == nil, record: r.number,
                                        link: l, ring: ring) {
            case let .plaintext(plain, actual):
                stats.decrypted += 1
                payload = plain[...]
                if actual != dir {
                    // The MIC verified only with the other direction's nonce: the timing guess was wrong.
                    dir = actual
                    l.lastDirection = dir
                    e.direction = dir.timelineDirection
                }
                radio = LinkLayerFacts(sniffer: sniffer, packet: facts,
                                       data: DataPDUFacts(header: h, direction: dir, inferred: info.direction == nil, decrypted: true))
            case let .repeated(actual):
                if actual != dir { dir = actual; l.lastDirection = dir; e.direction = dir.timelineDirection }
                stats.retransmissions += 1
                l.retransmissions += 1
                show(.retransmission(of: s.record))
                return
            case .micFailure:
                stats.micFailures += 1
                show(.micFailure(payload: payload))
                return
            case .noKey:
                stats.encrypted += 1
                show(.encrypted(payload: payload))
                // Data the capture cannot read still counts as traffic (less its 4-byte MIC).
                if h.llid != 3 { pipeline.chain.sniffedData(e, payload: max(0, Int(h.length) - 4)) }
                return
            }
        }
        switch h.llid {
        case 3:
            stats.control += 1
            do {
                var d = try LLControl.decode(payload)
                show(.control(d))
                encryptionProcedure(d, dir, l, r)
                d.notApplied = sniffedLimits(d, dir, l, record: r.number, counter: counter)
                cisSetup(d, l)
                if let effect = d.effect, let refused = control(effect, l, r, counter: counter) { d.notApplied = refused }
                if d.notApplied != nil { show(.control(d)) }
            } catch {
                e.radio = radio
                pipeline.markMalformed(&e, r, layer: "LL control PDU", error)
            }
        case 1 where h.length == 0:
            stats.empty += 1
            l.empty += 1
            show(.empty)
        case 1, 2:
            l.dataPDUs += 1
            guard let handle = l.handle, let connection = conn else {
                show(.notFollowed)
                return
            }
            let (outcome, warning) = reassembler.feed(handle: handle, direction: info.direction == nil ? .unknown : e.direction,
                                                      start: h.llid == 2, payload, record: r.number)
            switch outcome {
            case let .frame(frame):
                if frame.cid == 0x0006 {
                    l.encryption.smp(frame.payload, fromCentral: dir == .centralToPeripheral, record: r.number, link: l, ring: ring)
                }
                // The sniffer's layers stay in front of the frame's, whatever body the frame's decoder makes.
                e.radio = radio
                pipeline.deliver(frame, connection, record: r.number, &e)
            case let .partial(_, have, expected, start):
                show(.fragment(start: start, have: have, expected: expected))
            case let .problem(_, reason):
                show(.problem(reason: reason, payload: payload))
            }
            e.warning = warning
            pipeline.chain.sniffedData(e, payload: payload.count)
        default:
            show(.reservedLLID)
        }
    }
}
