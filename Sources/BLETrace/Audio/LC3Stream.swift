/// An LC3 configuration as the ASCS codec configuration LTVs give it (ASE Codec Configured): what one SDU of
/// the stream should hold.
public struct LC3Configuration: Sendable, Equatable {
    public var sampleRate: Int
    /// 7500 or 10000.
    public var frameMicros: Int
    public var octetsPerFrame: Int
    /// Channels in the audio channel allocation (1 when it names none).
    public var channels: Int
    public var blocksPerSDU: Int

    /// The SDU length the configuration implies: octets per frame × channels × blocks.
    public var sduLength: Int { octetsPerFrame * channels * blocksPerSDU }

    /// The LC3 configuration of an ASE's codec settings (nil when the codec is not LC3 or a field is missing).
    init?(_ c: AudioCodecSettings) {
        guard c.codingFormat == 0x06, let rate = c.samplingFrequencyHz, let dt = c.frameDurationMicros,
              let octets = c.octetsPerFrame, octets > 0, octets <= 400 else { return nil }
        sampleRate = rate
        frameMicros = dt
        octetsPerFrame = octets
        channels = max(1, min(8, (c.channelAllocation ?? 0).nonzeroBitCount))
        blocksPerSDU = max(1, min(16, c.frameBlocksPerSDU ?? 1))
    }
}

/// What the audio layer knows of an LC3 stream over ISO: the ASE it carries and its negotiated configuration,
/// the SDUs as found (their length against the configuration's), and the SDUs the controller flagged (the ISO
/// data packet's status: 1 possibly invalid, 2 lost). Typed facts; `Report/LC3Render.swift` writes them.
public struct LC3Stream: Sendable {
    /// The ASE (id, sink or source) the stream was joined to, and its configuration with the record of the
    /// ASE's Codec Configured state.
    public var ase: UInt8?
    public var sink: Bool?
    /// A BIS: its BIG and BIS_index (the stream's configuration then comes from the BASE, `negotiatedRecord` the
    /// periodic advertising report that carried it).
    public var big: UInt8?
    public var bis: UInt8?
    public var negotiated: LC3Configuration?
    public var negotiatedRecord: Int?
    /// The first SDU's length and record.
    public var foundLength: Int?
    public var foundRecord: Int?
    /// SDUs whose length is not the configuration's, and the first records.
    public var mismatchedSDUs = 0
    public var mismatchRecords: [Int] = []
    public var firstMismatchLength: Int?
    /// SDUs flagged possibly invalid (decoded anyway) and lost (silence), and empty SDUs (silence).
    public var invalidSDUs = 0
    public var lostSDUs = 0
    public var emptySDUs = 0

    /// One SDU's duration in microseconds (frame duration × blocks), nil before a configuration is known.
    var sduMicros: Int64? { negotiated.map { Int64($0.frameMicros * $0.blocksPerSDU) } }
}
