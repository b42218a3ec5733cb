/// The bundled sample captures, scripted with `Scenario`. `bletrace make-samples DIR` writes them;
/// a test checks the committed files in `samples/` are exactly what this code makes.
public enum Samples {
    public struct Sample {
        public var fileName: String
        public var description: String
        public var bytes: [UInt8]
    }

    public static let local = BDAddr(0x00_1A_7D_DA_71_13)
    public static let thermo = BDAddr(0xC4_7C_8D_6A_11_22)
    public static let beacon = BDAddr(0x00_07_80_4C_B1_E5)
    public static let eddystone = BDAddr(0xE3_1F_20_5B_7A_09)
    public static let watch = BDAddr(0x5D_4E_3F_2A_1B_0C)
    public static let phone = BDAddr(0x80_96_98_42_54_B0)

    public static func all() -> [Sample] {
        [
            Sample(fileName: "scan.btsnoop", description: "a scan: iBeacon, Eddystone-URL, a sensor with scan response, a watch soliciting ANCS, an extended advert, one malformed advert",
                   bytes: scan().writer.bytes),
            Sample(fileName: "gatt-session.btsnoop", description: "one connection: MTU exchange, full GATT discovery, reads of GAP/Battery/DIS, notifications, an ATT error, disconnect",
                   bytes: gattSession().writer.bytes),
            Sample(fileName: "encrypted-link.pcap", description: "pcap (link type 201): LE Secure Connections pairing with Numeric Comparison, key distribution, encryption, ATT read on the encrypted link",
                   bytes: encryptedLink().writer.bytes),
            Sample(fileName: "pairing-failed.pcap", description: "the encrypted-link session, but the user rejects the Numeric Comparison: Pairing Failed, then an Authentication Failure disconnect (diff it against encrypted-link.pcap)",
                   bytes: pairingFailed().writer.bytes),
            Sample(fileName: "diff-good.btsnoop", description: "a sensor session that works: discovery, Device Information reads, battery notifications (the A side of `bletrace diff`)",
                   bytes: diffSession(bad: false).writer.bytes),
            Sample(fileName: "diff-bad.btsnoop", description: "the same session after a firmware update: revision changed, a characteristic gone, Insufficient Authentication, one discovery step skipped, a slow response",
                   bytes: diffSession(bad: true).writer.bytes),
            Sample(fileName: "ancs-iphone.pklg", description: "PacketLogger from an iPhone serving ANCS to a watch: incoming call, missed call, voicemail, removal",
                   bytes: ancsSession().writer.bytes),
        ]
    }

    static func str(_ s: String) -> [UInt8] { Array(s.utf8) }
    static let le16 = HCIBuilder.le16
    static let ad = HCIBuilder.ad

    // MARK: scan

    public static func iBeaconAdvert() -> [UInt8] {
        let uuid: [UInt8] = [0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0]
        return ad(0x01, [0x06]) + ad(0xFF, [0x4C, 0x00, 0x02, 0x15] + uuid + [0x00, 0x01, 0x01, 0x02, 0xC5])
    }

    public static func scan() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: local)
        s.startScan()
        scanBurst(s, rounds: 4)
        s.stopScan()
        return s
    }

    /// Adverts from five devices, `rounds` times, then an extended advert and a malformed one.
    public static func scanBurst(_ s: Scenario, rounds: Int) {
        let thermoAdv = ad(0x01, [0x06]) + ad(0x03, le16(0x180F) + le16(0x180A)) + ad(0x08, str("Thermo"))
        let thermoRsp = ad(0x09, str("Thermo-42")) + ad(0x0A, [0x00]) + ad(0x19, le16(0x0300))
        let eddyURL = ad(0x01, [0x06]) + ad(0x03, le16(0xFEAA)) + ad(0x16, le16(0xFEAA) + [0x10, 0xEB, 0x03] + str("example") + [0x07])
        let ancsUUID: [UInt8] = [0xD0, 0x00, 0x2D, 0x12, 0x1E, 0x4B, 0x0F, 0xA4, 0x99, 0x4E, 0xCE, 0xB5, 0x31, 0xF4, 0x05, 0x79]
        let watchAdv = ad(0x01, [0x06]) + ad(0x15, ancsUUID) + ad(0x09, str("Watch"))
        for round in 0..<rounds {
            let jitter = Int8(round % 3)
            s.advert(type: 3, addressType: 0, address: beacon, data: iBeaconAdvert(), rssi: -67 - jitter)
            s.advance(ms: 31)
            s.advert(type: 0, addressType: 1, address: thermo, data: thermoAdv, rssi: -52 + jitter)
            s.advance(ms: 2)
            s.advert(type: 4, addressType: 1, address: thermo, data: thermoRsp, rssi: -53 + jitter)
            s.advance(ms: 27)
            s.advert(type: 3, addressType: 1, address: eddystone, data: eddyURL, rssi: -80 - jitter)
            s.advance(ms: 40)
            s.advert(type: 0, addressType: 1, address: watch, data: watchAdv, rssi: -61)
            s.advance(ms: 100)
        }
        let ext = BDAddr(0xF2_11_22_33_44_55)
        s.controller(.event, HCIBuilder.extendedAdvertisingReport(eventType: 0x0001, addressType: 1, address: ext, sid: 3, txPower: 4,
                                                                  rssi: -70, data: ad(0x01, [0x06]) + ad(0x09, str("Extended Sensor"))))
        s.advance(ms: 50)
        // A broken advert: the second structure claims 9 bytes but only 3 follow.
        s.advert(type: 3, addressType: 1, address: BDAddr(0xC0_FF_EE_00_00_01), data: ad(0x01, [0x04]) + [0x09, 0x09, 0x41, 0x42, 0x43], rssi: -90)
        s.advance(ms: 50)
    }

    // MARK: GATT session

    public static func gattSession() -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: local)
        gattSession(s, handle: 0x0040, peer: thermo)
        return s
    }

    /// Connect, discover, read, subscribe, receive notifications, hit an error, write, disconnect.
    public static func gattSession(_ s: Scenario, handle h: UInt16, peer: BDAddr, notifications: Int = 3) {
        s.connect(handle: h, peer: peer, peerType: 1)
        s.attOut(h, [0x02] + le16(247))                       // Exchange MTU Request
        s.attIn(h, [0x03] + le16(185))                        // Exchange MTU Response
        // Primary services
        s.attOut(h, [0x10] + le16(0x0001) + le16(0xFFFF) + le16(0x2800))
        s.attIn(h, [0x11, 6] + le16(0x0001) + le16(0x0007) + le16(0x1800) + le16(0x0008) + le16(0x000B) + le16(0x1801)
                + le16(0x000C) + le16(0x000F) + le16(0x180F) + le16(0x0010) + le16(0x0018) + le16(0x180A))
        s.attOut(h, [0x10] + le16(0x0019) + le16(0xFFFF) + le16(0x2800))
        let nus: [UInt8] = [0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E]
        var nusRX = nus; nusRX[12] = 0x02
        var nusTX = nus; nusTX[12] = 0x03
        s.attIn(h, [0x11, 20] + le16(0x0019) + le16(0x001E) + nus)
        s.attOut(h, [0x10] + le16(0x001F) + le16(0xFFFF) + le16(0x2800))
        s.attIn(h, [0x01, 0x10] + le16(0x001F) + [0x0A])
        // Characteristics
        s.attOut(h, [0x08] + le16(0x0001) + le16(0xFFFF) + le16(0x2803))
        var chars: [UInt8] = [0x09, 7]
        for (decl, props, uuid) in [(0x0002, 0x02, 0x2A00), (0x0004, 0x02, 0x2A01), (0x0006, 0x02, 0x2A04), (0x0009, 0x20, 0x2A05),
                                    (0x000D, 0x12, 0x2A19), (0x0011, 0x02, 0x2A29), (0x0013, 0x02, 0x2A24), (0x0015, 0x02, 0x2A26),
                                    (0x0017, 0x02, 0x2A50)] as [(UInt16, UInt8, UInt16)] {
            chars += le16(decl) + [props] + le16(decl + 1) + le16(uuid)
        }
        s.attIn(h, chars)
        s.attOut(h, [0x08] + le16(0x0018) + le16(0xFFFF) + le16(0x2803))
        s.attIn(h, [0x09, 21] + le16(0x001A) + [0x0C] + le16(0x001B) + nusRX + le16(0x001C) + [0x10] + le16(0x001D) + nusTX)
        s.attOut(h, [0x08] + le16(0x001E) + le16(0xFFFF) + le16(0x2803))
        s.attIn(h, [0x01, 0x08] + le16(0x001E) + [0x0A])
        // Descriptors
        for cccd in [0x000B, 0x000F, 0x001E] as [UInt16] {
            s.attOut(h, [0x04] + le16(cccd) + le16(cccd))
            s.attIn(h, [0x05, 0x01] + le16(cccd) + le16(0x2902))
        }
        // Reads
        let reads: [(UInt16, [UInt8])] = [
            (0x0003, str("Thermo-42")), (0x0005, le16(0x0300)), (0x0007, le16(24) + le16(40) + le16(0) + le16(400)),
            (0x000E, [90]), (0x0012, str("Acme Sensors")), (0x0014, str("TH-1")), (0x0016, str("1.4.2")),
            (0x0018, [0x01] + le16(0x0059) + le16(0x0001) + le16(0x0100)),
        ]
        for (handle, value) in reads {
            s.attOut(h, [0x0A] + le16(handle))
            s.attIn(h, [0x0B] + value)
        }
        // Subscribe to battery notifications, then three notifications.
        s.attOut(h, [0x12] + le16(0x000F) + [0x01, 0x00])
        s.attIn(h, [0x13])
        for i in 0..<notifications {
            s.advance(ms: 1000)
            s.attIn(h, [0x1B] + le16(0x000E) + [UInt8(truncatingIfNeeded: 89 - i / 2)])
        }
        // Reading a notify-only characteristic fails.
        s.attOut(h, [0x0A] + le16(0x001D))
        s.attIn(h, [0x01, 0x0A] + le16(0x001D) + [0x02])
        // Write Command to the UART RX characteristic.
        s.attOut(h, [0x52] + le16(0x001B) + str("hello"))
        s.advance(ms: 500)
        s.disconnect(handle: h)
    }

    // MARK: encrypted link

    public static func encryptedLink() -> Scenario {
        let s = Scenario(format: .pcap(linkType: 201))
        s.powerOn(local: local)
        encryptedLink(s, handle: 0x0041)
        return s
    }

    public static func pairingFailed() -> Scenario {
        let s = Scenario(format: .pcap(linkType: 201))
        s.powerOn(local: local)
        pairingFailed(s, handle: 0x0041)
        return s
    }

    /// The same pairing as `encryptedLink`, but the numbers do not match on the phone: the initiator sends
    /// Pairing Failed (Numeric Comparison Failed) and drops the link with Authentication Failure.
    public static func pairingFailed(_ s: Scenario, handle h: UInt16) {
        s.connect(handle: h, peer: watch, peerType: 1, interval: 36, timeout: 500)
        func fill(_ seed: UInt8, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ $0 &* 7) } }
        s.smpOut(h, [0x01, 0x01, 0x00, 0x0D, 16, 0x0D, 0x0F])
        s.smpIn(h, [0x02, 0x01, 0x00, 0x0D, 16, 0x0D, 0x0F])
        s.smpOut(h, [0x0C] + fill(1, 64))
        s.smpIn(h, [0x0C] + fill(2, 64))
        s.smpIn(h, [0x03] + fill(3, 16))
        s.smpOut(h, [0x04] + fill(4, 16))
        s.smpIn(h, [0x04] + fill(5, 16))
        s.advance(ms: 8000)                 // the user rejects the comparison
        s.smpOut(h, [0x05, 0x0C])           // Pairing Failed: Numeric Comparison Failed
        s.advance(ms: 100)
        s.disconnect(handle: h, reason: 0x05, byHost: true)
    }

    /// Secure Connections pairing with Numeric Comparison, encryption, key distribution, a read, disconnect.
    public static func encryptedLink(_ s: Scenario, handle h: UInt16) {
        s.connect(handle: h, peer: watch, peerType: 1, interval: 36, timeout: 500)
        func fill(_ seed: UInt8, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ $0 &* 7) } }
        // Pairing Request / Response: DisplayYesNo on both sides, bonding + MITM + SC → Numeric Comparison.
        s.smpOut(h, [0x01, 0x01, 0x00, 0x0D, 16, 0x0D, 0x0F])
        s.smpIn(h, [0x02, 0x01, 0x00, 0x0D, 16, 0x0D, 0x0F])
        s.smpOut(h, [0x0C] + fill(1, 64))   // Pairing Public Key
        s.smpIn(h, [0x0C] + fill(2, 64))
        s.smpIn(h, [0x03] + fill(3, 16))    // Pairing Confirm
        s.smpOut(h, [0x04] + fill(4, 16))   // Pairing Random
        s.smpIn(h, [0x04] + fill(5, 16))
        s.advance(ms: 3000)                 // the user compares the numbers
        s.smpOut(h, [0x0D] + fill(6, 16))   // DHKey Check
        s.smpIn(h, [0x0D] + fill(7, 16))
        s.commandWithStatus(0x2019, le16(h) + [UInt8](repeating: 0, count: 10) + fill(8, 16))
        s.advance(ms: 80)
        s.controller(.event, HCIBuilder.event(0x08, [0x00] + le16(h) + [0x01]))
        s.advance(ms: 10)
        // Key distribution on the encrypted link.
        s.smpIn(h, [0x08] + fill(9, 16))                          // Identity Information (IRK)
        s.smpIn(h, [0x09, 0x01] + HCIBuilder.addr(BDAddr(0xD5_4E_3F_2A_1B_0C)))  // Identity Address Information
        s.smpOut(h, [0x08] + fill(10, 16))
        s.smpOut(h, [0x09, 0x00] + HCIBuilder.addr(local))
        s.attOut(h, [0x02] + le16(247))
        s.attIn(h, [0x03] + le16(247))
        s.attOut(h, [0x08] + le16(0x0001) + le16(0xFFFF) + le16(0x2A19))  // Read By Type: Battery Level
        s.attIn(h, [0x09, 3] + le16(0x0025) + [77])
        s.advance(ms: 2000)
        s.disconnect(handle: h, reason: 0x13, byHost: false)
    }

    // MARK: ANCS on an iPhone

    public static func ancsSession() -> Scenario {
        let s = Scenario(format: .packetLogger(littleEndian: true))
        s.note("Product: iPhone (bletrace sample)")
        s.note("Bluetooth Host: bletrace sample writer")
        ancsSession(s, handle: 0x0045)
        return s
    }

    /// An iPhone (the local host) serving ANCS to a watch: discovery, subscriptions, four notifications.
    public static func ancsSession(_ s: Scenario, handle h: UInt16) {
        // The watch advertises; the phone connects as central and serves ANCS as GATT server.
        s.command(0x200B, [0x01] + le16(0x0030) + le16(0x0030) + [0x01, 0x00])
        s.command(0x200C, [0x01, 0x01])
        let ancsUUID: [UInt8] = [0xD0, 0x00, 0x2D, 0x12, 0x1E, 0x4B, 0x0F, 0xA4, 0x99, 0x4E, 0xCE, 0xB5, 0x31, 0xF4, 0x05, 0x79]
        s.advert(type: 0, addressType: 1, address: watch, data: ad(0x01, [0x06]) + ad(0x15, ancsUUID) + ad(0x09, str("Watch")), rssi: -48)
        s.advance(ms: 20)
        s.command(0x200C, [0x00, 0x00])
        s.connect(handle: h, peer: watch, peerType: 1, interval: 24, timeout: 72)
        // The watch (GATT client) exchanges MTU and finds ANCS on the phone.
        s.attIn(h, [0x02] + le16(185))
        s.attOut(h, [0x03] + le16(185))
        let ancs = Array(ancsUUID)
        s.attIn(h, [0x06] + le16(0x0001) + le16(0xFFFF) + le16(0x2800) + ancs)   // Find By Type Value
        s.attOut(h, [0x07] + le16(0x0030) + le16(0x0038))
        func uuid128(_ canonical: String) -> [UInt8] { BLEUUID(string: canonical)!.littleEndianBytes }
        let ns = uuid128("9FBF120D-6301-42D9-8C58-25E699A21DBD")
        let cp = uuid128("69D1D8F3-45E1-49A8-9821-9BBDFDAAD9D9")
        let ds = uuid128("22EAC6E9-24D6-4BB5-BE44-B36ACE7C7BFB")
        s.attIn(h, [0x08] + le16(0x0030) + le16(0x0038) + le16(0x2803))
        s.attOut(h, [0x09, 21] + le16(0x0031) + [0x10] + le16(0x0032) + ns + le16(0x0034) + [0x08] + le16(0x0035) + cp
                 + le16(0x0036) + [0x10] + le16(0x0037) + ds)
        s.attIn(h, [0x04] + le16(0x0033) + le16(0x0033))
        s.attOut(h, [0x05, 0x01] + le16(0x0033) + le16(0x2902))
        s.attIn(h, [0x04] + le16(0x0038) + le16(0x0038))
        s.attOut(h, [0x05, 0x01] + le16(0x0038) + le16(0x2902))
        // Subscribe to Data Source first, then Notification Source (as Apple recommends).
        s.attIn(h, [0x12] + le16(0x0038) + [0x01, 0x00])
        s.attOut(h, [0x13])
        s.attIn(h, [0x12] + le16(0x0033) + [0x01, 0x00])
        s.attOut(h, [0x13])
        // 1. Incoming call (UID 0x15), the example of the ANCS write-up.
        s.advance(ms: 2000)
        s.attOut(h, [0x1B] + le16(0x0032) + [0x00, 0x02, 0x01, 0x01, 0x15, 0x00, 0x00, 0x00])
        s.attIn(h, [0x12] + le16(0x0035) + [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x0B, 0x00])
        s.attOut(h, [0x13])
        s.attOut(h, [0x1B] + le16(0x0037) + [0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x0A, 0x00] + str("John Smith"))
        // App identifier, title, message and date in one request; the answer is split over two notifications.
        s.attIn(h, [0x12] + le16(0x0035) + [0x00, 0x15, 0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00, 0x03, 0x40, 0x00, 0x05])
        s.attOut(h, [0x13])
        let appID = str("com.apple.mobilephone")
        let message = str("Incoming Call")
        let date = str("20261122T101500")
        var response: [UInt8] = [0x00, 0x15, 0x00, 0x00, 0x00]
        response += [0x00] + le16(UInt16(appID.count)) + appID
        response += [0x01] + le16(10) + str("John Smith")
        response += [0x03] + le16(UInt16(message.count)) + message
        response += [0x05] + le16(UInt16(date.count)) + date
        s.attOut(h, [0x1B] + le16(0x0037) + Array(response[0..<40]))
        s.attOut(h, [0x1B] + le16(0x0037) + Array(response[40...]))
        // 2. The call ends unanswered: the incoming call is removed, a missed call (UID 0x16) is added.
        s.advance(ms: 15000)
        s.attOut(h, [0x1B] + le16(0x0032) + [0x02, 0x00, 0x01, 0x00, 0x15, 0x00, 0x00, 0x00])
        s.attOut(h, [0x1B] + le16(0x0032) + [0x00, 0x12, 0x02, 0x01, 0x16, 0x00, 0x00, 0x00])
        // 3. A voicemail (UID 0x17) arrives.
        s.advance(ms: 30000)
        s.attOut(h, [0x1B] + le16(0x0032) + [0x00, 0x02, 0x03, 0x01, 0x17, 0x00, 0x00, 0x00])
        // The watch asks for attributes of a notification that does not exist: ANCS error Invalid Parameter.
        s.attIn(h, [0x12] + le16(0x0035) + [0x00, 0x99, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00])
        s.attOut(h, [0x01, 0x12] + le16(0x0035) + [0xA2])
        // The user dismisses the missed call from the watch (negative action), the phone removes it.
        s.advance(ms: 5000)
        s.attIn(h, [0x12] + le16(0x0035) + [0x02, 0x16, 0x00, 0x00, 0x00, 0x01])
        s.attOut(h, [0x13])
        s.attOut(h, [0x1B] + le16(0x0032) + [0x02, 0x00, 0x02, 0x00, 0x16, 0x00, 0x00, 0x00])
        s.advance(ms: 1000)
        s.disconnect(handle: h, reason: 0x13, byHost: false)
    }

    // MARK: diff pair

    /// A good session and a bad one that differ in exactly five planted ways (firmware revision "1.4.2" →
    /// "1.4.3"; the Hardware Revision String characteristic missing; Insufficient Authentication reading PnP
    /// ID; the last primary-service discovery request skipped; the Manufacturer Name read answered 400 ms
    /// late). Everything else, adverts and timing included, is the same.
    public static func diffSession(bad: Bool) -> Scenario {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.powerOn(local: local)
        s.startScan()
        let thermoAdv = ad(0x01, [0x06]) + ad(0x03, le16(0x180F) + le16(0x180A)) + ad(0x08, str("Thermo"))
        let thermoRsp = ad(0x09, str("Thermo-42")) + ad(0x0A, [0x00]) + ad(0x19, le16(0x0300))
        for _ in 0..<3 {
            s.advert(type: 0, addressType: 1, address: thermo, data: thermoAdv, rssi: -52)
            s.advance(ms: 2)
            s.advert(type: 4, addressType: 1, address: thermo, data: thermoRsp, rssi: -53)
            s.advance(ms: 100)
        }
        s.stopScan()
        let h: UInt16 = 0x0040
        s.connect(handle: h, peer: thermo, peerType: 1)
        s.attOut(h, [0x02] + le16(247))
        s.attIn(h, [0x03] + le16(185))
        // Primary services; the bad client stops after the first response (skipping the last request).
        let disEnd: UInt16 = bad ? 0x0018 : 0x001A
        s.attOut(h, [0x10] + le16(0x0001) + le16(0xFFFF) + le16(0x2800))
        s.attIn(h, [0x11, 6] + le16(0x0001) + le16(0x0007) + le16(0x1800) + le16(0x0008) + le16(0x000B) + le16(0x1801)
                + le16(0x000C) + le16(0x000F) + le16(0x180F) + le16(0x0010) + le16(disEnd) + le16(0x180A))
        if !bad {
            s.attOut(h, [0x10] + le16(disEnd + 1) + le16(0xFFFF) + le16(0x2800))
            s.attIn(h, [0x01, 0x10] + le16(disEnd + 1) + [0x0A])
        }
        // Characteristics: the bad firmware has no Hardware Revision String.
        var list: [(UInt16, UInt8, UInt16)] = [(0x0002, 0x02, 0x2A00), (0x0004, 0x02, 0x2A01), (0x0006, 0x02, 0x2A04), (0x0009, 0x20, 0x2A05),
                                               (0x000D, 0x12, 0x2A19), (0x0011, 0x02, 0x2A29), (0x0013, 0x02, 0x2A24), (0x0015, 0x02, 0x2A26),
                                               (0x0017, 0x02, 0x2A50)]
        if !bad { list.append((0x0019, 0x02, 0x2A27)) }
        s.attOut(h, [0x08] + le16(0x0001) + le16(0xFFFF) + le16(0x2803))
        var chars: [UInt8] = [0x09, 7]
        for (decl, props, uuid) in list { chars += le16(decl) + [props] + le16(decl + 1) + le16(uuid) }
        s.attIn(h, chars)
        s.attOut(h, [0x08] + le16(disEnd + 1) + le16(0xFFFF) + le16(0x2803))
        s.attIn(h, [0x01, 0x08] + le16(disEnd + 1) + [0x0A])
        for cccd in [0x000B, 0x000F] as [UInt16] {
            s.attOut(h, [0x04] + le16(cccd) + le16(cccd))
            s.attIn(h, [0x05, 0x01] + le16(cccd) + le16(0x2902))
        }
        // Reads.
        let reads: [(UInt16, [UInt8])] = [
            (0x0003, str("Thermo-42")), (0x0012, str("Acme Sensors")), (0x0014, str("TH-1")),
            (0x0016, str(bad ? "1.4.3" : "1.4.2")), (0x0018, [0x01] + le16(0x0059) + le16(0x0001) + le16(0x0100)), (0x000E, [90]),
        ]
        for (handle, value) in reads {
            s.attOut(h, [0x0A] + le16(handle))
            if bad && handle == 0x0012 { s.advance(ms: 400) }          // a slow response
            if bad && handle == 0x0018 {
                s.attIn(h, [0x01, 0x0A] + le16(handle) + [0x05])       // Insufficient Authentication
            } else {
                s.attIn(h, [0x0B] + value)
            }
        }
        // Battery notifications.
        s.attOut(h, [0x12] + le16(0x000F) + [0x01, 0x00])
        s.attIn(h, [0x13])
        for level in [89, 88] as [UInt8] {
            s.advance(ms: 1000)
            s.attIn(h, [0x1B] + le16(0x000E) + [level])
        }
        s.advance(ms: 200)
        s.disconnect(handle: h)
        return s
    }
}
