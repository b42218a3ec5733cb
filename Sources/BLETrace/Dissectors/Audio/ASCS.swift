/// Audio Stream Control Service 0x184E (ASCS 1.0): Sink ASE 0x2BC4, Source ASE 0x2BC5 and ASE Control Point
/// 0x2BC6. The values are `ASEValue` and `ASEControlPointValue`; their facts feed the stream view.
public struct ASCSDissector: ValueDissector {
    public let name = "ascs"
    public let uuids: [BLEUUID] = [0x2BC4, 0x2BC5, 0x2BC6].map { BLEUUID(UInt16($0)) }
    public init() {}

    public func dissect(_ v: ArraySlice<UInt8>, _ ctx: ValueContext) -> Dissection {
        switch ctx.uuid.uuid16 {
        case 0x2BC4, 0x2BC5: return ASCSDissector.ase(v, sink: ctx.uuid.uuid16 == 0x2BC4)
        default: return ctx.fromClient ? ASCSDissector.operation(v) : ASCSDissector.response(v)
        }
    }

    /// A Sink or Source ASE value.
    public static func ase(_ v: ArraySlice<UInt8>, sink: Bool) -> Dissection {
        guard !v.isEmpty else { return .invalid("ascs", "empty value") }
        var c = ByteCursor(v)
        var value: ASEValue?
        do {
            try ASEValue.read(&c, sink: sink, into: &value)
        } catch {
            return Dissection("ascs", value: value ?? NoValue(), problem: "\(error)")
        }
        guard let value else { return .invalid("ascs", "no ASE") }
        let problem = value.state > 6 ? "ASE state \(value.state) is reserved" : value.innerProblem ?? DissectorText.extra(c)
        return Dissection("ascs", value: value, problem: problem)
    }

    /// A written operation: Opcode, Number_of_ASEs, then each ASE's parameters.
    public static func operation(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard let op = try? c.u8() else { return .invalid("ascs", "empty value") }
        guard let n = try? c.u8() else {
            return Dissection("ascs", value: ASEControlPointValue.operation(opcode: op, count: 0, ases: []), problem: "no Number_of_ASEs")
        }
        var ases: [ASEOperation] = []
        if op >= 1 && op <= 8 {
            do {
                for _ in 0..<n { ases.append(try ASEOperation.read(&c, opcode: op)) }
            } catch {
                return Dissection("ascs", value: ASEControlPointValue.operation(opcode: op, count: n, ases: ases), problem: "\(error)")
            }
        }
        let value = ASEControlPointValue.operation(opcode: op, count: n, ases: ases)
        let problem = op == 0 || op > 8 ? "opcode \(op) is reserved" : value.innerProblem ?? DissectorText.extra(c)
        return Dissection("ascs", value: value, problem: problem)
    }

    /// The notified response: Opcode, Number_of_ASEs (0xFF: one entry for an unsupported opcode or invalid
    /// length), then ASE_ID, Response_Code, Reason per ASE.
    public static func response(_ v: ArraySlice<UInt8>) -> Dissection {
        var c = ByteCursor(v)
        guard let op = try? c.u8() else { return .invalid("ascs", "empty value") }
        var r = ASEControlResponse(opcode: op, count: 0, entries: [])
        do {
            r.count = try c.u8()
            let n = r.count == 0xFF ? 1 : Int(r.count)
            for _ in 0..<n {
                r.entries.append(ASEControlResponse.Entry(aseID: try c.u8(), responseCode: try c.u8(), reason: try c.u8()))
            }
        } catch {
            return Dissection("ascs", value: ASEControlPointValue.response(r), problem: "\(error)")
        }
        return Dissection("ascs", value: ASEControlPointValue.response(r), problem: DissectorText.extra(c))
    }
}
