import Testing
@testable import BLETrace

/// The redactor learns names and strings from every typed source, however they were read.
@Suite struct RedactorLearningTests {
    @Test func learnsDecodedStringsOfEveryKind() {
        let r = Redactor()
        r.learn(value: UserValue(label: "Owner", reading: .utf8(Array("Alice's Tag".utf8)[...]), unit: nil))
        r.learn(value: StringValue(key: "serial_number", value: "SN-99", identity: true))
        r.learn(value: DescribedValue(inner: StringValue(key: "device_name", value: "Kitchen Bulb", identity: true), characteristic: BLEUUID(UInt16(0x2A00))))
        r.learn(value: StringValue(key: "model_number", value: "KB-7", identity: true))
        // A Characteristic User Description is the firmware's label, and a model number or firmware revision
        // names a product: not identifying.
        r.learn(value: StringValue(key: "user_description", value: "Temperature", identity: false))
        r.learn(value: StringValue(key: "firmware_revision", value: "1.4.2", identity: true))
        #expect(r.redact("Alice's Tag SN-99 Kitchen Bulb KB-7 Temperature 1.4.2") == "text-1 serial-1 name-1 KB-7 Temperature 1.4.2")
        // Markdown's escaped form of a name is replaced too.
        r.learnString("ESP32_LED", kind: .name)
        #expect(r.redact("| ESP32\\_LED |") == "| name-2 |")
    }

    /// A Device Name read with Read By Type (no discovery before it, so no database knows the handle).
    @Test func deviceNameByReadByTypeWithoutDiscovery() throws {
        let s = Scenario(format: .btsnoop(datalink: 1002))
        s.connect(handle: 0x0040, peer: Samples.thermo, peerType: 1)
        s.attOut(0x0040, [0x08] + HCIBuilder.le16(1) + HCIBuilder.le16(0xFFFF) + HCIBuilder.le16(0x2A00))
        let name = Array("Secret Phone".utf8)
        s.attIn(0x0040, [0x09, UInt8(2 + name.count)] + HCIBuilder.le16(0x0003) + name)
        for format in RedactorTests.Format.allCases {
            let text = try RedactorTests.redactedOutput(s.writer.bytes, format: format)
            #expect(!text.contains("Secret Phone") && !text.contains(Hex.string(name)), "\(format)")
            #expect(text.contains("name-1"), "\(format)")
        }
    }

    /// The learner reads the fields as they are written (no tree); it must learn what the tree gives, in the
    /// same order (pseudonyms are numbered in learning order), on every sample's events.
    @Test func learningFromWrittenFieldsEqualsLearningFromTheTree() throws {
        var learned = 0
        for sample in Samples.all() {
            let fromTree = Redactor(), fromSink = Redactor()
            let (events, _) = TestSupport.analyze(try CaptureFile.open(bytes: sample.bytes), path: sample.fileName)
            for e in events {
                for (_, f) in e.layers { fromTree.learn(fields: f) }
                var w = LearningFieldSink(fromSink)
                EventJSON.writeLayers(e, into: &w)
                #expect(w.stack.isEmpty)
            }
            #expect(fromSink.originals.map(\.value) == fromTree.originals.map(\.value), "\(sample.fileName)")
            #expect(fromSink.originals.map(\.kind) == fromTree.originals.map(\.kind), "\(sample.fileName)")
            learned += fromSink.originals.count
        }
        // Addresses, names, beacon UUIDs and keys of the samples.
        #expect(learned > 30)
    }
}
