@testable import BLETrace

/// Runs one value through the standard registry, as the ATT layer would.
func dissect(_ uuid: BLEUUID, _ bytes: [UInt8], fromClient: Bool = false, opcode: UInt8? = nil, characteristic: BLEUUID? = nil,
             descriptor: Bool = false, state: DissectorState = DissectorState(), registry: DissectorRegistry = .standard) -> Dissection? {
    let ctx = ValueContext(uuid: uuid, characteristic: characteristic ?? (descriptor ? nil : uuid), isDescriptor: descriptor,
                           opcode: opcode ?? (fromClient ? 0x12 : 0x0B), fromClient: fromClient, state: state)
    return registry.dissect(bytes[...], ctx)
}

func sig(_ u: UInt16) -> BLEUUID { BLEUUID(u) }
