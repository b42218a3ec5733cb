import Testing
@testable import BLETrace

@Suite("HCINames")
struct HCINamesTests {

    // MARK: Commands

    @Test("Link Control, Controller & Baseband, Informational opcodes")
    func classicCommands() {
        #expect(HCINames.command(0x0401) == "Inquiry")
        #expect(HCINames.command(0x0405) == "Create Connection")
        #expect(HCINames.command(0x0406) == "Disconnect")
        #expect(HCINames.command(0x041D) == "Read Remote Version Information")
        #expect(HCINames.command(0x0C01) == "Set Event Mask")
        #expect(HCINames.command(0x0C03) == "Reset")
        #expect(HCINames.command(0x0C14) == "Read Local Name")
        #expect(HCINames.command(0x0C63) == "Set Event Mask Page 2")
        #expect(HCINames.command(0x0C6D) == "Write LE Host Support")
        #expect(HCINames.command(0x1001) == "Read Local Version Information")
        #expect(HCINames.command(0x1002) == "Read Local Supported Commands")
        #expect(HCINames.command(0x1003) == "Read Local Supported Features")
        #expect(HCINames.command(0x1005) == "Read Buffer Size")
        #expect(HCINames.command(0x1009) == "Read BD_ADDR")
        #expect(HCINames.command(0x1405) == "Read RSSI")
        #expect(HCINames.command(0x0811) == "Sniff Subrating")
        #expect(HCINames.command(0x1803) == "Enable Implementation Under Test Mode")
    }

    @Test("LE Controller opcodes")
    func leCommands() {
        let expected: [(UInt16, String)] = [
            (0x2001, "LE Set Event Mask"),
            (0x2002, "LE Read Buffer Size [v1]"),
            (0x2003, "LE Read Local Supported Features"),
            (0x2005, "LE Set Random Address"),
            (0x2006, "LE Set Advertising Parameters"),
            (0x2008, "LE Set Advertising Data"),
            (0x2009, "LE Set Scan Response Data"),
            (0x200A, "LE Set Advertising Enable"),
            (0x200B, "LE Set Scan Parameters"),
            (0x200C, "LE Set Scan Enable"),
            (0x200D, "LE Create Connection"),
            (0x200E, "LE Create Connection Cancel"),
            (0x2011, "LE Add Device To Filter Accept List"),
            (0x2013, "LE Connection Update"),
            (0x2016, "LE Read Remote Features"),
            (0x2019, "LE Enable Encryption"),
            (0x201A, "LE Long Term Key Request Reply"),
            (0x201B, "LE Long Term Key Request Negative Reply"),
            (0x2022, "LE Set Data Length"),
            (0x2027, "LE Add Device To Resolving List"),
            (0x202D, "LE Set Address Resolution Enable"),
            (0x2032, "LE Set PHY"),
            (0x2036, "LE Set Extended Advertising Parameters"),
            (0x2037, "LE Set Extended Advertising Data"),
            (0x2039, "LE Set Extended Advertising Enable"),
            (0x2041, "LE Set Extended Scan Parameters"),
            (0x2042, "LE Set Extended Scan Enable"),
            (0x2043, "LE Extended Create Connection"),
            (0x2060, "LE Read Buffer Size [v2]"),
            (0x2062, "LE Set CIG Parameters"),
            (0x2064, "LE Create CIS"),
            (0x2068, "LE Create BIG"),
            (0x206E, "LE Setup ISO Data Path"),
            (0x2074, "LE Set Host Feature"),
            (0x207C, "LE Set Data Related Address Changes"),
            (0x207E, "LE Subrate Request"),
            (0x207F, "LE Set Extended Advertising Parameters [v2]"),
            (0x2085, "LE Extended Create Connection [v2]"),
            (0x2087, "LE Read All Local Supported Features"),
        ]
        for (opcode, name) in expected {
            #expect(HCINames.command(opcode) == name, "opcode 0x\(String(opcode, radix: 16))")
        }
    }

    @Test("Vendor, NOP and unassigned opcodes return nil")
    func unknownCommands() {
        #expect(HCINames.command(0xFC00) == nil)  // OGF 0x3F vendor
        #expect(HCINames.command(0xFC4C) == nil)
        #expect(HCINames.command(0xFFFF) == nil)
        #expect(HCINames.command(0x0000) == nil)  // NOP
        #expect(HCINames.command(0x0400) == nil)  // OCF 0 in Link Control
        #expect(HCINames.command(0x2004) == nil)  // unassigned LE OCF
        #expect(HCINames.command(0x1C01) == nil)  // OGF 0x07 unused
        #expect(HCINames.command(0x23FF) == nil)
    }

    // MARK: Events

    @Test("Event codes")
    func events() {
        #expect(HCINames.event(0x03) == "Connection Complete")
        #expect(HCINames.event(0x05) == "Disconnection Complete")
        #expect(HCINames.event(0x08) == "Encryption Change [v1]")
        #expect(HCINames.event(0x0C) == "Read Remote Version Information Complete")
        #expect(HCINames.event(0x0E) == "Command Complete")
        #expect(HCINames.event(0x0F) == "Command Status")
        #expect(HCINames.event(0x10) == "Hardware Error")
        #expect(HCINames.event(0x13) == "Number Of Completed Packets")
        #expect(HCINames.event(0x1A) == "Data Buffer Overflow")
        #expect(HCINames.event(0x30) == "Encryption Key Refresh Complete")
        #expect(HCINames.event(0x3E) == "LE Meta")
        #expect(HCINames.event(0x57) == "Authenticated Payload Timeout Expired")
        #expect(HCINames.event(0x59) == "Encryption Change [v2]")
        #expect(HCINames.event(0x00) == nil)
        #expect(HCINames.event(0x24) == nil)
        #expect(HCINames.event(0x5A) == nil)
        #expect(HCINames.event(0xFF) == nil)  // vendor
    }

    // MARK: LE subevents

    @Test("LE Meta subevent codes")
    func leSubevents() {
        #expect(HCINames.leSubevent(0x01) == "LE Connection Complete")
        #expect(HCINames.leSubevent(0x02) == "LE Advertising Report")
        #expect(HCINames.leSubevent(0x03) == "LE Connection Update Complete")
        #expect(HCINames.leSubevent(0x04) == "LE Read Remote Features Complete")
        #expect(HCINames.leSubevent(0x05) == "LE Long Term Key Request")
        #expect(HCINames.leSubevent(0x07) == "LE Data Length Change")
        #expect(HCINames.leSubevent(0x0A) == "LE Enhanced Connection Complete")
        #expect(HCINames.leSubevent(0x0C) == "LE PHY Update Complete")
        #expect(HCINames.leSubevent(0x0D) == "LE Extended Advertising Report")
        #expect(HCINames.leSubevent(0x12) == "LE Advertising Set Terminated")
        #expect(HCINames.leSubevent(0x14) == "LE Channel Selection Algorithm")
        #expect(HCINames.leSubevent(0x19) == "LE CIS Established")
        #expect(HCINames.leSubevent(0x22) == "LE BIGInfo Advertising Report")
        #expect(HCINames.leSubevent(0x23) == "LE Subrate Change")
        #expect(HCINames.leSubevent(0x29) == "LE Enhanced Connection Complete [v2]")
        #expect(HCINames.leSubevent(0x00) == nil)
        #expect(HCINames.leSubevent(0x36) == nil)
        #expect(HCINames.leSubevent(0xFF) == nil)
    }

    // MARK: Status / error codes

    @Test("Controller error codes")
    func statusCodes() {
        #expect(HCINames.status(0x00) == "Success")
        #expect(HCINames.status(0x01) == "Unknown HCI Command")
        #expect(HCINames.status(0x02) == "Unknown Connection Identifier")
        #expect(HCINames.status(0x05) == "Authentication Failure")
        #expect(HCINames.status(0x06) == "PIN or Key Missing")
        #expect(HCINames.status(0x08) == "Connection Timeout")
        #expect(HCINames.status(0x0C) == "Command Disallowed")
        #expect(HCINames.status(0x12) == "Invalid HCI Command Parameters")
        #expect(HCINames.status(0x13) == "Remote User Terminated Connection")
        #expect(HCINames.status(0x16) == "Connection Terminated By Local Host")
        #expect(HCINames.status(0x1A) == "Unsupported Remote Feature")
        #expect(HCINames.status(0x1F) == "Unspecified Error")
        #expect(HCINames.status(0x22) == "LMP Response Timeout / LL Response Timeout")
        #expect(HCINames.status(0x28) == "Instant Passed")
        #expect(HCINames.status(0x3B) == "Unacceptable Connection Parameters")
        #expect(HCINames.status(0x3C) == "Advertising Timeout")
        #expect(HCINames.status(0x3D) == "Connection Terminated due to MIC Failure")
        #expect(HCINames.status(0x3E) == "Connection Failed to be Established / Synchronization Timeout")
        #expect(HCINames.status(0x42) == "Unknown Advertising Identifier")
        #expect(HCINames.status(0x45) == "Packet Too Long")
        #expect(HCINames.status(0x46) == "Too Late")
        #expect(HCINames.status(0x2B) == nil)  // reserved
        #expect(HCINames.status(0x31) == nil)  // reserved
        #expect(HCINames.status(0x33) == nil)  // reserved
        #expect(HCINames.status(0x49) == nil)
        #expect(HCINames.status(0xFF) == nil)
    }
}
