import Testing
@testable import BLETrace

@Suite("LE Audio: BASS, VCS, VOCS, AICS and CSIS")
struct AudioControlTests {
    static let address: [UInt8] = [0x11, 0x00, 0x00, 0x00, 0x00, 0xF0]

    @Test("BASS control point: Add Source, Set Broadcast_Code as a key, Remove Source; short and reserved")
    func bassControlPoint() throws {
        let add = [0x02, 0x01] + Self.address + [0x00] + le24(0x5A17C3) + [0x02] + le(0xFFFF) + [1] + leU32(0x0000_0003) + [0]
        let d = try #require(dissect(sig(0x2BC7), add, fromClient: true))
        #expect(d.dissector == "bass" && d.problem == nil)
        #expect(d.text == "Add Source F0:00:00:00:00:11 broadcast ID 0x5A17C3, Synchronize to PA, PAST not available, 1 subgroup(s)")
        #expect(d.fields["broadcast_id"] == .int(0x5A17C3) && d.fields["address_type"] == .string("random"))
        guard case let .list(groups)? = d.fields["subgroups"], case let .object(g)? = groups.first else { Issue.record("no subgroups"); return }
        #expect(g["bis_sync"] == .int(3) && g["bis_indices"] == .list([.int(1), .int(2)]))
        let code = try #require(dissect(sig(0x2BC7), [0x04, 0x01] + Array(1...16), fromClient: true))
        #expect(code.fields["broadcast_code"] == .hex(Array((1...16).reversed())) && code.text == "Set Broadcast_Code for source 1")
        #expect(dissect(sig(0x2BC7), [0x05, 0x01], fromClient: true)?.text == "Remove Source 1")
        #expect(dissect(sig(0x2BC7), [0x01], fromClient: true)?.text == "Remote Scan Started")
        #expect(dissect(sig(0x2BC7), [0x04, 0x01, 0x02], fromClient: true)?.problem?.contains("truncated") == true)
        #expect(dissect(sig(0x2BC7), Array(add.dropLast(3)), fromClient: true)?.problem?.contains("truncated") == true)
        #expect(dissect(sig(0x2BC7), [0x06], fromClient: true)?.problem == "opcode 6 is reserved")
        #expect(dissect(sig(0x2BC7), [], fromClient: true)?.problem == "empty value")
    }

    @Test("Broadcast Receive State: source, PA sync, Bad_Code, subgroups; empty; short")
    func receiveState() throws {
        let code = Array(UInt8(0xA0)...UInt8(0xAF))
        let v = [0x01, 0x00] + Self.address + [0x01] + le24(0x123456) + [0x02, 0x03] + code + [1] + leU32(1) + [4] + ltv(0x02, le(0x0004))
        let d = try #require(dissect(sig(0x2BC8), v, opcode: 0x1B))
        #expect(d.problem == nil)
        #expect(d.text == "source 1 F0:00:00:00:00:11 broadcast ID 0x123456, Synchronized to PA, Bad_Code")
        #expect(d.fields["bad_code"] == .hex(code.reversed()) && d.fields["pa_sync_state_name"] == .string("Synchronized to PA"))
        guard case let .list(groups)? = d.fields["subgroups"], case let .object(g)? = groups.first else { Issue.record("no subgroups"); return }
        #expect(g["bis_sync_state"] == .int(1) && g["metadata"]?.objectValue?["streaming_audio_contexts"] == .list([.string("Media")]))
        #expect(dissect(sig(0x2BC8), [])?.text == "no source")
        #expect(dissect(sig(0x2BC8), Array(v.prefix(10)))?.problem?.contains("truncated") == true)
        // Not encrypted: no Bad_Code; failed BIS sync.
        let plain = [0x01, 0x00] + Self.address + [0x01] + le24(7) + [0x00, 0x00] + [1] + leU32(0xFFFF_FFFF) + [0]
        let p = try #require(dissect(sig(0x2BC8), plain))
        #expect(p.problem == nil && p.fields["bad_code"] == nil)
        guard case let .list(pg)? = p.fields["subgroups"], case let .object(pf)? = pg.first else { Issue.record("no subgroups"); return }
        #expect(pf["bis_sync_failed"] == .bool(true))
    }

    @Test("VCS and VOCS: volume state, control point, flags, offset state, location, offset control point")
    func volume() throws {
        let s = try #require(dissect(sig(0x2B7D), [160, 1, 3], opcode: 0x1B))
        #expect(s.dissector == "volume_control" && s.text == "volume 160/255, muted, counter 3")
        #expect(s.fields["volume_setting"] == .int(160) && s.fields["mute"] == .bool(true) && s.fields["change_counter"] == .int(3))
        #expect(dissect(sig(0x2B7D), [1, 2])?.problem == "2 bytes, expected 3")
        #expect(dissect(sig(0x2B7D), [1, 2, 0])?.problem == "mute 2 is reserved")
        let cp = try #require(dissect(sig(0x2B7E), [0x04, 3, 160], fromClient: true))
        #expect(cp.text == "Set Absolute Volume 160" && cp.fields["change_counter"] == .int(3) && cp.problem == nil)
        #expect(dissect(sig(0x2B7E), [0x04, 3], fromClient: true)?.problem == "2 bytes, expected 3")
        #expect(dissect(sig(0x2B7E), [0x06, 3], fromClient: true)?.text == "Mute")
        #expect(dissect(sig(0x2B7E), [0x07, 3], fromClient: true)?.problem == "opcode 7 is reserved")
        #expect(dissect(sig(0x2B7F), [1])?.fields["volume_setting_persisted"] == .bool(true))
        #expect(dissect(sig(0x2B80), [0x9C, 0xFF, 1])?.fields["volume_offset"] == .int(-100))
        #expect(dissect(sig(0x2B81), leU32(2))?.text == "Front Right")
        #expect(dissect(sig(0x2B82), [0x01, 2, 0x0A, 0x00], fromClient: true)?.fields["volume_offset"] == .int(10))
        #expect(dissect(sig(0x2B82), [0x01, 2], fromClient: true)?.problem == "2 bytes, expected 4")
        #expect(dissect(sig(0x2B83), Array("Left".utf8))?.fields["audio_output_description"] == .string("Left"))
    }

    @Test("AICS: input state, gain properties, type, status, control point, description")
    func inputControl() throws {
        let s = try #require(dissect(sig(0x2B77), [0xF6, 0x00, 0x02, 0x05]))
        #expect(s.dissector == "audio_input_control" && s.text == "gain -10, not muted, manual")
        #expect(s.fields["gain_setting"] == .int(-10) && s.fields["gain_mode_name"] == .string("Manual"))
        #expect(dissect(sig(0x2B77), [0xF6, 0x00])?.problem == "2 bytes, expected 4")
        let g = try #require(dissect(sig(0x2B78), [10, 0xC4, 30]))
        #expect(g.fields["gain_setting_units_db"] == .double(1) && g.fields["gain_setting_minimum"] == .int(-60) && g.text == "gain -60…30 in steps of 1.0 dB")
        #expect(dissect(sig(0x2B79), [2])?.text == "Microphone")
        #expect(dissect(sig(0x2B7A), [1])?.text == "active")
        #expect(dissect(sig(0x2B7A), [2])?.problem == "status 2 is reserved")
        #expect(dissect(sig(0x2B7B), [0x01, 5, 0xFB], fromClient: true)?.text == "Set Gain Setting -5")
        #expect(dissect(sig(0x2B7B), [0x01, 5], fromClient: true)?.problem == "2 bytes, expected 3")
        #expect(dissect(sig(0x2B7B), [0x09, 5], fromClient: true)?.problem == "opcode 9 is reserved")
        #expect(dissect(sig(0x2B7C), Array("Mic".utf8))?.text == "\"Mic\"")
    }

    @Test("CSIS: SIRK most significant byte first, set size, lock and rank; short and reserved")
    func csis() throws {
        let wire = Array(UInt8(0)...UInt8(15))
        let d = try #require(dissect(sig(0x2B84), [0x01] + wire))
        #expect(d.dissector == "csis" && d.problem == nil)
        #expect(d.fields["sirk"] == .hex(wire.reversed()) && d.fields["sirk_type_name"] == .string("plain text"))
        #expect(d.text == "plain text SIRK 0f0e0d0c0b0a09080706050403020100")
        #expect(dissect(sig(0x2B84), [0x00] + wire.dropLast())?.problem == "16 bytes, expected 17")
        #expect(dissect(sig(0x2B84), [0x02] + wire)?.problem == "SIRK type 2 is reserved")
        #expect(dissect(sig(0x2B85), [2])?.text == "set of 2")
        #expect(dissect(sig(0x2B85), [0])?.problem == "0 is not allowed")
        #expect(dissect(sig(0x2B86), [2])?.fields["lock"] == .string("locked"))
        #expect(dissect(sig(0x2B86), [3])?.problem == "lock value 3 is reserved")
        #expect(dissect(sig(0x2B87), [1])?.text == "rank 1")
        #expect(dissect(sig(0x2B87), [])?.problem == "0 bytes, expected 1")
    }

    @Test("--redact learns the SIRK and the Broadcast_Code from their decoded values, in both byte orders")
    func redaction() throws {
        let wire: [UInt8] = [0x3A, 0x91, 0x5C, 0x07, 0xE2, 0x44, 0x18, 0xB6, 0x9F, 0x21, 0xD3, 0x6E, 0x80, 0x4B, 0xC5, 0x72]
        for (uuid, bytes) in [(0x2B84 as UInt16, [0x00] + wire), (0x2BC7, [0x04, 0x01] + wire)] {
            let d = try #require(dissect(sig(uuid), bytes, fromClient: uuid == 0x2BC7))
            let r = Redactor()
            var sink = LearningFieldSink(r)
            sink.beginObject()
            sink.object("decoded") { d.writeJSON(into: &$0) }
            sink.endObject()
            let text = "key " + Hex.string(wire.reversed()) + " wire " + Hex.string(wire)
            let out = r.redact(text)
            #expect(!out.contains(Hex.string(wire.reversed())) && !out.contains(Hex.string(wire)), "\(uuid)")
            #expect(out.hasPrefix("key "))
        }
    }

    @Test("HAS: features, active preset, preset control point operations and notifications")
    func hearingAccess() throws {
        let f = try #require(dissect(sig(0x2BDA), [0x1D]))
        #expect(f.dissector == "hearing_access" && f.fields["hearing_aid_type"] == .string("Monaural Hearing Aid"))
        #expect(f.fields["features"] == .list([.string("Preset Synchronization Support"), .string("Independent Presets"), .string("Dynamic Presets")]))
        #expect(dissect(sig(0x2BDA), [])?.problem == "0 bytes, expected 1")
        #expect(dissect(sig(0x2BDC), [3])?.text == "active preset 3")
        #expect(dissect(sig(0x2BDB), [0x01, 1, 5], fromClient: true)?.fields["num_presets"] == .int(5))
        let r = try #require(dissect(sig(0x2BDB), [0x02, 1, 2, 0x03] + Array("Outdoor".utf8), opcode: 0x1D))
        #expect(r.problem == nil && r.text == "Read Preset Response 2 \"Outdoor\"" && r.fields["available"] == .bool(true))
        let changed = try #require(dissect(sig(0x2BDB), [0x03, 0x01, 1, 4], opcode: 0x1D))
        #expect(changed.text == "Preset Changed (Preset Record Deleted) 4" && changed.fields["is_last"] == .bool(true))
        #expect(dissect(sig(0x2BDB), [0x03, 0x00, 1, 1, 2], opcode: 0x1D)?.problem?.contains("truncated") == true)
        #expect(dissect(sig(0x2BDB), [0x04, 2, 0xFF], fromClient: true)?.problem == "preset name is not valid UTF-8")
        #expect(dissect(sig(0x2BDB), [0x05], fromClient: true)?.problem?.contains("truncated") == true)
        #expect(dissect(sig(0x2BDB), [0x0B], fromClient: true)?.problem == "opcode 11 is reserved")
        #expect(dissect(sig(0x2BDB), [0x06, 0], fromClient: true)?.problem == "1 unexpected byte after the value")
    }
}
