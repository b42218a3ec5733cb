/// Follows the isochronous control plane of an HCI capture and opens a connection for each CIS and BIS: CIG
/// parameters and their CIS handles (LE Set CIG Parameters and its Command Complete), the ACL each CIS is created
/// on (LE Create CIS, LE CIS Request), CIS Established (opens the CIS; its Disconnection Complete closes it),
/// BIGs created or synchronised (each BIS opened, all closed when the BIG ends), the periodic advertising syncs
/// BIGs are found through, and the ISO data paths. Bounded by the 8-bit CIG and BIG ids and the 12-bit handles.
final class ISOTracker {
    /// The last LE Set CIG Parameters per CIG id, waiting for its Command Complete's handles.
    var cigRequests: [UInt8: CIGParameters] = [:]
    /// What is known of each CIS handle before it is established: its CIG, its CIS id, its parameters, its ACL.
    struct PendingCIS {
        var cig: UInt8?
        var cis: UInt8?
        var acl: UInt16?
        var config: CIGParameters.CIS?
        var group: CIGParameters?
    }
    var cis: [UInt16: PendingCIS] = [:]
    /// The BIGs: the sync they were created over (synchronised ones), their BIS handles, the peer.
    var bigs: [UInt8: (sync: UInt16?, handles: [UInt16])] = [:]
    /// Periodic advertising syncs: handle → advertiser; the create-sync's advertiser waiting for its handle.
    var syncs: [UInt16: (address: BDAddr, type: AddressType)] = [:]
    var bigSyncRequests: [UInt8: UInt16] = [:]
    static let maxSyncs = 256

    func command(_ c: HCICommandBody) {
        guard case let .iso(p) = c.params else { return }
        switch p {
        case let .setCIGParameters(g):
            cigRequests[g.cig] = g
        case let .createCIS(pairs):
            for pair in pairs { cis[pair.cis, default: PendingCIS()].acl = pair.acl }
        case let .bigCreateSync(s):
            bigSyncRequests[s.big] = s.syncHandle
        case let .setupDataPath(d):
            pendingPaths[d.handle] = (d.direction, d.pathID == 0)
        default:
            break
        }
    }

    /// The Command Complete of an isochronous command (its return parameters).
    func completed(_ opcode: UInt16, status: UInt8?, _ r: ISOReturn, connections: ConnectionTracker, record: Int, at time: Timestamp) {
        guard status == 0 else { return }
        switch (opcode, r) {
        case let (0x2062, .cig(cig, handles)), let (0x2063, .cig(cig, handles)):
            guard let g = cigRequests[cig] else { return }
            for (i, h) in handles.enumerated() where i < g.cis.count {
                var p = cis[h] ?? PendingCIS()
                p.cig = cig
                p.cis = g.cis[i].id
                p.config = g.cis[i]
                p.group = g
                cis[h] = p
            }
        case let (0x206E, .handle(h)):
            // The path's direction is in the command.
            if let d = pendingPaths.removeValue(forKey: h) { connections.dataPath(handle: h, direction: d.direction, hci: d.hci) }
        case let (_, .bigSyncTerminated(big)):
            end(big: big, reason: 0x16, connections: connections, record: record, at: time)
        default:
            break
        }
    }

    /// LE Setup ISO Data Path commands waiting for their Command Complete: direction, over HCI.
    var pendingPaths: [UInt16: (direction: UInt8, hci: Bool)] = [:]

    func event(_ e: ISOEvent, connections: ConnectionTracker, record: Int, at time: Timestamp) {
        switch e {
        case let .cisRequest(acl, h, cig, id):
            var p = cis[h] ?? PendingCIS()
            p.acl = acl; p.cig = cig; p.cis = id
            cis[h] = p
        case let .cisEstablished(c):
            let p = cis[c.handle]
            guard c.status == 0 else { return }
            var link = ISOLink(kind: .cis(cig: p?.cig, cis: p?.cis, acl: p?.acl), isoInterval: c.isoInterval,
                               sduInterval: c.sduInterval ?? p?.group?.sduInterval, maxSDU: c.maxSDU ?? p?.config?.maxSDU, maxPDU: c.maxPDU,
                               phy: c.phy, transportLatency: c.transportLatency, nse: c.nse, bn: c.bn, flushTimeout: c.flushTimeout,
                               framing: c.framing ?? p?.group?.framing)
            link.dataPaths = 0
            let acl = p?.acl.flatMap { connections.existing($0) }
            connections.isochronous(handle: c.handle, link: link, peer: acl?.peer, peerType: acl?.peerType, role: acl?.role,
                                    record: record, at: time)
            cis[c.handle] = nil
        case let .bigEstablished(g):
            let sync = g.created ? nil : bigSyncRequests[g.big]
            bigSyncRequests[g.big] = nil
            guard g.status == 0 else { return }
            let peer = sync.flatMap { syncs[$0] }
            for (i, h) in g.handles.enumerated() {
                let link = ISOLink(kind: .bis(big: g.big, index: i + 1, created: g.created), isoInterval: g.isoInterval, sduInterval: nil,
                                   maxSDU: nil, maxPDU: EachWay(g.maxPDU, g.maxPDU), phy: g.phy.map { EachWay($0, $0) },
                                   transportLatency: EachWay(g.transportLatency, g.transportLatency), nse: g.nse, bn: EachWay(g.bn, g.bn),
                                   flushTimeout: nil, framing: nil)
                connections.isochronous(handle: h, link: link, peer: peer?.address, peerType: peer?.type, role: nil, record: record, at: time)
            }
            bigs[g.big] = (sync, g.handles)
        case let .bigEnded(big, reason, _):
            end(big: big, reason: reason, connections: connections, record: record, at: time)
        case let .periodicSyncEstablished(s) where s.status == 0:
            if syncs.count < ISOTracker.maxSyncs || syncs[s.handle] != nil { syncs[s.handle] = (s.address, AddressType(hci: s.addressType, address: s.address)) }
        default:
            break
        }
    }

    /// A BIG ended (terminated, lost, or its sync terminated): its BISes close.
    func end(big: UInt8, reason: UInt8, connections: ConnectionTracker, record: Int, at time: Timestamp) {
        guard let b = bigs.removeValue(forKey: big) else { return }
        for h in b.handles where connections.existing(h) != nil {
            connections.apply(.closed(handle: h, reason: reason), record: record, at: time)
        }
    }
}
