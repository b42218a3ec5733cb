/// The LC3 configuration of a broadcast isochronous stream, for the audio layer: the BIS's index in its BIG and
/// what the broadcast's BASE (BAP 1.0 3.7.2.2, carried in periodic advertising and kept by `Broadcasts`) says
/// about it: the subgroup's codec and Codec_Specific_Configuration (level 2) with the BIS's own entries
/// (level 3) over them, and the record of the report that carried the BASE.
struct BISConfiguration {
    /// BIS_index (1…).
    var index: UInt8
    /// The codec settings, when the BASE names this BIS.
    var codec: AudioCodecSettings?
    var record: Int?

    /// The configuration of BIS `handle` in BIG `big`: from the latest broadcast whose BIG established that
    /// handle. The index is the one asked for in LE BIG Create Sync at the handle's place (a sink may sync to
    /// some BISes only), else the handle's place + 1 (a BIG the local side created has them all).
    init?(_ broadcasts: Broadcasts, handle: UInt16, big: UInt8) {
        guard let b = broadcasts.broadcasts.last(where: { $0.big == big && $0.bisHandles.contains(handle) }),
              let place = b.bisHandles.firstIndex(of: handle) else { return nil }
        index = b.requestedBIS.count == b.bisHandles.count ? b.requestedBIS[place] : UInt8(truncatingIfNeeded: place + 1)
        guard let base = b.base else { return }
        for g in base.subgroups {
            guard let bis = g.bis.first(where: { $0.index == index }) else { continue }
            codec = AudioCodecSettings(codecID: g.codec, configuration: BISConfiguration.merged(g.configuration, bis.configuration))
            record = b.baseRecord
            return
        }
    }

    /// Level-2 configuration with the level-3 entries over it: an LTV type the BIS gives replaces the subgroup's.
    static func merged(_ subgroup: CodecConfiguration, _ bis: CodecConfiguration) -> CodecConfiguration {
        var c = subgroup
        let own = Set(bis.items.map(ltvType))
        c.items = subgroup.items.filter { !own.contains(ltvType($0)) } + bis.items
        return c
    }

    /// The LTV type of a configuration item (BAP 1.0 4.3: 0x01 sampling frequency … 0x05 blocks per SDU).
    static func ltvType(_ item: CodecConfiguration.Item) -> UInt8 {
        switch item {
        case .samplingFrequency: return 0x01
        case .frameDuration: return 0x02
        case .channelAllocation: return 0x03
        case .octetsPerFrame: return 0x04
        case .frameBlocksPerSDU: return 0x05
        case let .other(type, _): return type
        }
    }
}
