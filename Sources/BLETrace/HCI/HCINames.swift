/// Names from the Bluetooth Core Specification 5.4, Vol 4 Part E (HCI) and Vol 1 Part F (error codes).
///
/// Conventions:
/// - Names follow the specification without the `HCI_` prefix, with underscores
///   replaced by spaces (e.g. `HCI_LE_Set_Scan_Enable` -> "LE Set Scan Enable").
///   Identifiers that the spec writes with an underscore inside a single token
///   (`BD_ADDR`, `LT_ADDR`) keep it.
/// - When a command or event exists in several versions with distinct codes, later
///   versions carry a " [v2]" / " [v3]" / " [v4]" suffix. The first version carries
///   " [v1]" only where the specification already labelled it that way before
///   Core 5.4 (LE Read Buffer Size, LE Receiver/Transmitter Test, LE Generate DHKey,
///   Read Local Supported Codecs, Encryption Change). Commands and events whose
///   second version first appeared in Core 5.4 or later keep their plain name for v1.
/// - Codes that were defined by earlier versions and later withdrawn (AMP, Park
///   State, page scan mode, ...) are still named, so older traces decode; they are
///   marked "withdrawn" in comments.
/// - A few codes added by Core 6.0 (Channel Sounding, decision-based advertising
///   filtering, monitored advertisers, frame space update) are also named and marked
///   in comments; controllers shipping them already appear in traces.
enum HCINames {

    // MARK: - Commands

    /// Command name for a full 16-bit opcode (OGF << 10 | OCF), e.g. 0x0406 -> "Disconnect",
    /// 0x200B -> "LE Set Scan Parameters", 0x0C03 -> "Reset". nil if unknown.
    /// OGF 0x3F (vendor) returns nil (caller shows vendor).
    static func command(_ opcode: UInt16) -> String? {
        switch opcode >> 10 {
        case 0x01: return linkControlCommand(opcode)
        case 0x02: return linkPolicyCommand(opcode)
        case 0x03: return controllerBasebandCommand(opcode)
        case 0x04: return informationalCommand(opcode)
        case 0x05: return statusParameterCommand(opcode)
        case 0x06: return testingCommand(opcode)
        case 0x08: return leControllerCommand(opcode)
        default: return nil  // 0x3F vendor-specific, 0x00 NOP, others reserved
        }
    }

    /// OGF 0x01, Link Control commands (Vol 4 Part E 7.1).
    private static func linkControlCommand(_ opcode: UInt16) -> String? {
        switch opcode {
        case 0x0401: return "Inquiry"
        case 0x0402: return "Inquiry Cancel"
        case 0x0403: return "Periodic Inquiry Mode"
        case 0x0404: return "Exit Periodic Inquiry Mode"
        case 0x0405: return "Create Connection"
        case 0x0406: return "Disconnect"
        case 0x0407: return "Add SCO Connection"  // withdrawn
        case 0x0408: return "Create Connection Cancel"
        case 0x0409: return "Accept Connection Request"
        case 0x040A: return "Reject Connection Request"
        case 0x040B: return "Link Key Request Reply"
        case 0x040C: return "Link Key Request Negative Reply"
        case 0x040D: return "PIN Code Request Reply"
        case 0x040E: return "PIN Code Request Negative Reply"
        case 0x040F: return "Change Connection Packet Type"
        case 0x0411: return "Authentication Requested"
        case 0x0413: return "Set Connection Encryption"
        case 0x0415: return "Change Connection Link Key"
        case 0x0417: return "Link Key Selection"
        case 0x0419: return "Remote Name Request"
        case 0x041A: return "Remote Name Request Cancel"
        case 0x041B: return "Read Remote Supported Features"
        case 0x041C: return "Read Remote Extended Features"
        case 0x041D: return "Read Remote Version Information"
        case 0x041F: return "Read Clock Offset"
        case 0x0420: return "Read LMP Handle"
        case 0x0428: return "Setup Synchronous Connection"
        case 0x0429: return "Accept Synchronous Connection Request"
        case 0x042A: return "Reject Synchronous Connection Request"
        case 0x042B: return "IO Capability Request Reply"
        case 0x042C: return "User Confirmation Request Reply"
        case 0x042D: return "User Confirmation Request Negative Reply"
        case 0x042E: return "User Passkey Request Reply"
        case 0x042F: return "User Passkey Request Negative Reply"
        case 0x0430: return "Remote OOB Data Request Reply"
        case 0x0433: return "Remote OOB Data Request Negative Reply"
        case 0x0434: return "IO Capability Request Negative Reply"
        case 0x0435: return "Create Physical Link"  // AMP, withdrawn
        case 0x0436: return "Accept Physical Link"  // AMP, withdrawn
        case 0x0437: return "Disconnect Physical Link"  // AMP, withdrawn
        case 0x0438: return "Create Logical Link"  // AMP, withdrawn
        case 0x0439: return "Accept Logical Link"  // AMP, withdrawn
        case 0x043A: return "Disconnect Logical Link"  // AMP, withdrawn
        case 0x043B: return "Logical Link Cancel"  // AMP, withdrawn
        case 0x043C: return "Flow Spec Modify"  // AMP, withdrawn
        case 0x043D: return "Enhanced Setup Synchronous Connection"
        case 0x043E: return "Enhanced Accept Synchronous Connection Request"
        case 0x043F: return "Truncated Page"
        case 0x0440: return "Truncated Page Cancel"
        case 0x0441: return "Set Connectionless Peripheral Broadcast"
        case 0x0442: return "Set Connectionless Peripheral Broadcast Receive"
        case 0x0443: return "Start Synchronization Train"
        case 0x0444: return "Receive Synchronization Train"
        case 0x0445: return "Remote OOB Extended Data Request Reply"
        default: return nil
        }
    }

    /// OGF 0x02, Link Policy commands (Vol 4 Part E 7.2).
    private static func linkPolicyCommand(_ opcode: UInt16) -> String? {
        switch opcode {
        case 0x0801: return "Hold Mode"
        case 0x0803: return "Sniff Mode"
        case 0x0804: return "Exit Sniff Mode"
        case 0x0805: return "Park State"  // withdrawn
        case 0x0806: return "Exit Park State"  // withdrawn
        case 0x0807: return "QoS Setup"
        case 0x0809: return "Role Discovery"
        case 0x080B: return "Switch Role"
        case 0x080C: return "Read Link Policy Settings"
        case 0x080D: return "Write Link Policy Settings"
        case 0x080E: return "Read Default Link Policy Settings"
        case 0x080F: return "Write Default Link Policy Settings"
        case 0x0810: return "Flow Specification"
        case 0x0811: return "Sniff Subrating"
        default: return nil
        }
    }

    /// OGF 0x03, Controller & Baseband commands (Vol 4 Part E 7.3).
    private static func controllerBasebandCommand(_ opcode: UInt16) -> String? {
        switch opcode {
        case 0x0C01: return "Set Event Mask"
        case 0x0C03: return "Reset"
        case 0x0C05: return "Set Event Filter"
        case 0x0C08: return "Flush"
        case 0x0C09: return "Read PIN Type"
        case 0x0C0A: return "Write PIN Type"
        case 0x0C0B: return "Create New Unit Key"  // withdrawn
        case 0x0C0D: return "Read Stored Link Key"
        case 0x0C11: return "Write Stored Link Key"
        case 0x0C12: return "Delete Stored Link Key"
        case 0x0C13: return "Write Local Name"
        case 0x0C14: return "Read Local Name"
        case 0x0C15: return "Read Connection Accept Timeout"
        case 0x0C16: return "Write Connection Accept Timeout"
        case 0x0C17: return "Read Page Timeout"
        case 0x0C18: return "Write Page Timeout"
        case 0x0C19: return "Read Scan Enable"
        case 0x0C1A: return "Write Scan Enable"
        case 0x0C1B: return "Read Page Scan Activity"
        case 0x0C1C: return "Write Page Scan Activity"
        case 0x0C1D: return "Read Inquiry Scan Activity"
        case 0x0C1E: return "Write Inquiry Scan Activity"
        case 0x0C1F: return "Read Authentication Enable"
        case 0x0C20: return "Write Authentication Enable"
        case 0x0C21: return "Read Encryption Mode"  // withdrawn
        case 0x0C22: return "Write Encryption Mode"  // withdrawn
        case 0x0C23: return "Read Class Of Device"
        case 0x0C24: return "Write Class Of Device"
        case 0x0C25: return "Read Voice Setting"
        case 0x0C26: return "Write Voice Setting"
        case 0x0C27: return "Read Automatic Flush Timeout"
        case 0x0C28: return "Write Automatic Flush Timeout"
        case 0x0C29: return "Read Num Broadcast Retransmissions"
        case 0x0C2A: return "Write Num Broadcast Retransmissions"
        case 0x0C2B: return "Read Hold Mode Activity"
        case 0x0C2C: return "Write Hold Mode Activity"
        case 0x0C2D: return "Read Transmit Power Level"
        case 0x0C2E: return "Read Synchronous Flow Control Enable"
        case 0x0C2F: return "Write Synchronous Flow Control Enable"
        case 0x0C31: return "Set Controller To Host Flow Control"
        case 0x0C33: return "Host Buffer Size"
        case 0x0C35: return "Host Number Of Completed Packets"
        case 0x0C36: return "Read Link Supervision Timeout"
        case 0x0C37: return "Write Link Supervision Timeout"
        case 0x0C38: return "Read Number Of Supported IAC"
        case 0x0C39: return "Read Current IAC LAP"
        case 0x0C3A: return "Write Current IAC LAP"
        case 0x0C3B: return "Read Page Scan Period Mode"  // withdrawn
        case 0x0C3C: return "Write Page Scan Period Mode"  // withdrawn
        case 0x0C3D: return "Read Page Scan Mode"  // withdrawn
        case 0x0C3E: return "Write Page Scan Mode"  // withdrawn
        case 0x0C3F: return "Set AFH Host Channel Classification"
        case 0x0C42: return "Read Inquiry Scan Type"
        case 0x0C43: return "Write Inquiry Scan Type"
        case 0x0C44: return "Read Inquiry Mode"
        case 0x0C45: return "Write Inquiry Mode"
        case 0x0C46: return "Read Page Scan Type"
        case 0x0C47: return "Write Page Scan Type"
        case 0x0C48: return "Read AFH Channel Assessment Mode"
        case 0x0C49: return "Write AFH Channel Assessment Mode"
        case 0x0C51: return "Read Extended Inquiry Response"
        case 0x0C52: return "Write Extended Inquiry Response"
        case 0x0C53: return "Refresh Encryption Key"
        case 0x0C55: return "Read Simple Pairing Mode"
        case 0x0C56: return "Write Simple Pairing Mode"
        case 0x0C57: return "Read Local OOB Data"
        case 0x0C58: return "Read Inquiry Response Transmit Power Level"
        case 0x0C59: return "Write Inquiry Transmit Power Level"
        case 0x0C5A: return "Read Default Erroneous Data Reporting"
        case 0x0C5B: return "Write Default Erroneous Data Reporting"
        case 0x0C5F: return "Enhanced Flush"
        case 0x0C60: return "Send Keypress Notification"
        case 0x0C61: return "Read Logical Link Accept Timeout"  // AMP, withdrawn
        case 0x0C62: return "Write Logical Link Accept Timeout"  // AMP, withdrawn
        case 0x0C63: return "Set Event Mask Page 2"
        case 0x0C64: return "Read Location Data"  // AMP, withdrawn
        case 0x0C65: return "Write Location Data"  // AMP, withdrawn
        case 0x0C66: return "Read Flow Control Mode"
        case 0x0C67: return "Write Flow Control Mode"
        case 0x0C68: return "Read Enhanced Transmit Power Level"
        case 0x0C69: return "Read Best Effort Flush Timeout"  // AMP, withdrawn
        case 0x0C6A: return "Write Best Effort Flush Timeout"  // AMP, withdrawn
        case 0x0C6B: return "Short Range Mode"  // AMP, withdrawn
        case 0x0C6C: return "Read LE Host Support"
        case 0x0C6D: return "Write LE Host Support"
        case 0x0C6E: return "Set MWS Channel Parameters"
        case 0x0C6F: return "Set External Frame Configuration"
        case 0x0C70: return "Set MWS Signaling"
        case 0x0C71: return "Set MWS Transport Layer"
        case 0x0C72: return "Set MWS Scan Frequency Table"
        case 0x0C73: return "Set MWS PATTERN Configuration"
        case 0x0C74: return "Set Reserved LT_ADDR"
        case 0x0C75: return "Delete Reserved LT_ADDR"
        case 0x0C76: return "Set Connectionless Peripheral Broadcast Data"
        case 0x0C77: return "Read Synchronization Train Parameters"
        case 0x0C78: return "Write Synchronization Train Parameters"
        case 0x0C79: return "Read Secure Connections Host Support"
        case 0x0C7A: return "Write Secure Connections Host Support"
        case 0x0C7B: return "Read Authenticated Payload Timeout"
        case 0x0C7C: return "Write Authenticated Payload Timeout"
        case 0x0C7D: return "Read Local OOB Extended Data"
        case 0x0C7E: return "Read Extended Page Timeout"
        case 0x0C7F: return "Write Extended Page Timeout"
        case 0x0C80: return "Read Extended Inquiry Length"
        case 0x0C81: return "Write Extended Inquiry Length"
        case 0x0C82: return "Set Ecosystem Base Interval"
        case 0x0C83: return "Configure Data Path"
        case 0x0C84: return "Set Min Encryption Key Size"
        default: return nil
        }
    }

    /// OGF 0x04, Informational parameters (Vol 4 Part E 7.4).
    private static func informationalCommand(_ opcode: UInt16) -> String? {
        switch opcode {
        case 0x1001: return "Read Local Version Information"
        case 0x1002: return "Read Local Supported Commands"
        case 0x1003: return "Read Local Supported Features"
        case 0x1004: return "Read Local Extended Features"
        case 0x1005: return "Read Buffer Size"
        case 0x1007: return "Read Country Code"  // withdrawn
        case 0x1009: return "Read BD_ADDR"
        case 0x100A: return "Read Data Block Size"
        case 0x100B: return "Read Local Supported Codecs [v1]"
        case 0x100C: return "Read Local Simple Pairing Options"
        case 0x100D: return "Read Local Supported Codecs [v2]"
        case 0x100E: return "Read Local Supported Codec Capabilities"
        case 0x100F: return "Read Local Supported Controller Delay"
        default: return nil
        }
    }

    /// OGF 0x05, Status parameters (Vol 4 Part E 7.5).
    private static func statusParameterCommand(_ opcode: UInt16) -> String? {
        switch opcode {
        case 0x1401: return "Read Failed Contact Counter"
        case 0x1402: return "Reset Failed Contact Counter"
        case 0x1403: return "Read Link Quality"
        case 0x1405: return "Read RSSI"
        case 0x1406: return "Read AFH Channel Map"
        case 0x1407: return "Read Clock"
        case 0x1408: return "Read Encryption Key Size"
        case 0x1409: return "Read Local AMP Info"  // AMP, withdrawn
        case 0x140A: return "Read Local AMP ASSOC"  // AMP, withdrawn
        case 0x140B: return "Write Remote AMP ASSOC"  // AMP, withdrawn
        case 0x140C: return "Get MWS Transport Layer Configuration"
        case 0x140D: return "Set Triggered Clock Capture"
        default: return nil
        }
    }

    /// OGF 0x06, Testing commands (Vol 4 Part E 7.6).
    private static func testingCommand(_ opcode: UInt16) -> String? {
        switch opcode {
        case 0x1801: return "Read Loopback Mode"
        case 0x1802: return "Write Loopback Mode"
        case 0x1803: return "Enable Implementation Under Test Mode"
        case 0x1804: return "Write Simple Pairing Debug Mode"
        case 0x1807: return "Enable AMP Receiver Reports"  // AMP, withdrawn
        case 0x1808: return "AMP Test End"  // AMP, withdrawn
        case 0x1809: return "AMP Test"  // AMP, withdrawn
        case 0x180A: return "Write Secure Connections Test Mode"
        default: return nil
        }
    }

    /// OGF 0x08, LE Controller commands (Vol 4 Part E 7.8).
    private static func leControllerCommand(_ opcode: UInt16) -> String? {
        switch opcode {
        case 0x2001: return "LE Set Event Mask"
        case 0x2002: return "LE Read Buffer Size [v1]"
        case 0x2003: return "LE Read Local Supported Features"
        case 0x2005: return "LE Set Random Address"
        case 0x2006: return "LE Set Advertising Parameters"
        case 0x2007: return "LE Read Advertising Physical Channel Tx Power"
        case 0x2008: return "LE Set Advertising Data"
        case 0x2009: return "LE Set Scan Response Data"
        case 0x200A: return "LE Set Advertising Enable"
        case 0x200B: return "LE Set Scan Parameters"
        case 0x200C: return "LE Set Scan Enable"
        case 0x200D: return "LE Create Connection"
        case 0x200E: return "LE Create Connection Cancel"
        case 0x200F: return "LE Read Filter Accept List Size"
        case 0x2010: return "LE Clear Filter Accept List"
        case 0x2011: return "LE Add Device To Filter Accept List"
        case 0x2012: return "LE Remove Device From Filter Accept List"
        case 0x2013: return "LE Connection Update"
        case 0x2014: return "LE Set Host Channel Classification"
        case 0x2015: return "LE Read Channel Map"
        case 0x2016: return "LE Read Remote Features"
        case 0x2017: return "LE Encrypt"
        case 0x2018: return "LE Rand"
        case 0x2019: return "LE Enable Encryption"
        case 0x201A: return "LE Long Term Key Request Reply"
        case 0x201B: return "LE Long Term Key Request Negative Reply"
        case 0x201C: return "LE Read Supported States"
        case 0x201D: return "LE Receiver Test [v1]"
        case 0x201E: return "LE Transmitter Test [v1]"
        case 0x201F: return "LE Test End"
        case 0x2020: return "LE Remote Connection Parameter Request Reply"
        case 0x2021: return "LE Remote Connection Parameter Request Negative Reply"
        case 0x2022: return "LE Set Data Length"
        case 0x2023: return "LE Read Suggested Default Data Length"
        case 0x2024: return "LE Write Suggested Default Data Length"
        case 0x2025: return "LE Read Local P-256 Public Key"
        case 0x2026: return "LE Generate DHKey [v1]"
        case 0x2027: return "LE Add Device To Resolving List"
        case 0x2028: return "LE Remove Device From Resolving List"
        case 0x2029: return "LE Clear Resolving List"
        case 0x202A: return "LE Read Resolving List Size"
        case 0x202B: return "LE Read Peer Resolvable Address"
        case 0x202C: return "LE Read Local Resolvable Address"
        case 0x202D: return "LE Set Address Resolution Enable"
        case 0x202E: return "LE Set Resolvable Private Address Timeout"
        case 0x202F: return "LE Read Maximum Data Length"
        case 0x2030: return "LE Read PHY"
        case 0x2031: return "LE Set Default PHY"
        case 0x2032: return "LE Set PHY"
        case 0x2033: return "LE Receiver Test [v2]"
        case 0x2034: return "LE Transmitter Test [v2]"
        case 0x2035: return "LE Set Advertising Set Random Address"
        case 0x2036: return "LE Set Extended Advertising Parameters"
        case 0x2037: return "LE Set Extended Advertising Data"
        case 0x2038: return "LE Set Extended Scan Response Data"
        case 0x2039: return "LE Set Extended Advertising Enable"
        case 0x203A: return "LE Read Maximum Advertising Data Length"
        case 0x203B: return "LE Read Number of Supported Advertising Sets"
        case 0x203C: return "LE Remove Advertising Set"
        case 0x203D: return "LE Clear Advertising Sets"
        case 0x203E: return "LE Set Periodic Advertising Parameters"
        case 0x203F: return "LE Set Periodic Advertising Data"
        case 0x2040: return "LE Set Periodic Advertising Enable"
        case 0x2041: return "LE Set Extended Scan Parameters"
        case 0x2042: return "LE Set Extended Scan Enable"
        case 0x2043: return "LE Extended Create Connection"
        case 0x2044: return "LE Periodic Advertising Create Sync"
        case 0x2045: return "LE Periodic Advertising Create Sync Cancel"
        case 0x2046: return "LE Periodic Advertising Terminate Sync"
        case 0x2047: return "LE Add Device To Periodic Advertiser List"
        case 0x2048: return "LE Remove Device From Periodic Advertiser List"
        case 0x2049: return "LE Clear Periodic Advertiser List"
        case 0x204A: return "LE Read Periodic Advertiser List Size"
        case 0x204B: return "LE Read Transmit Power"
        case 0x204C: return "LE Read RF Path Compensation"
        case 0x204D: return "LE Write RF Path Compensation"
        case 0x204E: return "LE Set Privacy Mode"
        case 0x204F: return "LE Receiver Test [v3]"
        case 0x2050: return "LE Transmitter Test [v3]"
        case 0x2051: return "LE Set Connectionless CTE Transmit Parameters"
        case 0x2052: return "LE Set Connectionless CTE Transmit Enable"
        case 0x2053: return "LE Set Connectionless IQ Sampling Enable"
        case 0x2054: return "LE Set Connection CTE Receive Parameters"
        case 0x2055: return "LE Set Connection CTE Transmit Parameters"
        case 0x2056: return "LE Connection CTE Request Enable"
        case 0x2057: return "LE Connection CTE Response Enable"
        case 0x2058: return "LE Read Antenna Information"
        case 0x2059: return "LE Set Periodic Advertising Receive Enable"
        case 0x205A: return "LE Periodic Advertising Sync Transfer"
        case 0x205B: return "LE Periodic Advertising Set Info Transfer"
        case 0x205C: return "LE Set Periodic Advertising Sync Transfer Parameters"
        case 0x205D: return "LE Set Default Periodic Advertising Sync Transfer Parameters"
        case 0x205E: return "LE Generate DHKey [v2]"
        case 0x205F: return "LE Modify Sleep Clock Accuracy"
        case 0x2060: return "LE Read Buffer Size [v2]"
        case 0x2061: return "LE Read ISO TX Sync"
        case 0x2062: return "LE Set CIG Parameters"
        case 0x2063: return "LE Set CIG Parameters Test"
        case 0x2064: return "LE Create CIS"
        case 0x2065: return "LE Remove CIG"
        case 0x2066: return "LE Accept CIS Request"
        case 0x2067: return "LE Reject CIS Request"
        case 0x2068: return "LE Create BIG"
        case 0x2069: return "LE Create BIG Test"
        case 0x206A: return "LE Terminate BIG"
        case 0x206B: return "LE BIG Create Sync"
        case 0x206C: return "LE BIG Terminate Sync"
        case 0x206D: return "LE Request Peer SCA"
        case 0x206E: return "LE Setup ISO Data Path"
        case 0x206F: return "LE Remove ISO Data Path"
        case 0x2070: return "LE ISO Transmit Test"
        case 0x2071: return "LE ISO Receive Test"
        case 0x2072: return "LE ISO Read Test Counters"
        case 0x2073: return "LE ISO Test End"
        case 0x2074: return "LE Set Host Feature"
        case 0x2075: return "LE Read ISO Link Quality"
        case 0x2076: return "LE Enhanced Read Transmit Power Level"
        case 0x2077: return "LE Read Remote Transmit Power Level"
        case 0x2078: return "LE Set Path Loss Reporting Parameters"
        case 0x2079: return "LE Set Path Loss Reporting Enable"
        case 0x207A: return "LE Set Transmit Power Reporting Enable"
        case 0x207B: return "LE Transmitter Test [v4]"
        case 0x207C: return "LE Set Data Related Address Changes"
        case 0x207D: return "LE Set Default Subrate"
        case 0x207E: return "LE Subrate Request"
        case 0x207F: return "LE Set Extended Advertising Parameters [v2]"
        case 0x2080: return "LE Set Decision Data"  // Core 6.0
        case 0x2081: return "LE Set Decision Instructions"  // Core 6.0
        case 0x2082: return "LE Set Periodic Advertising Subevent Data"
        case 0x2083: return "LE Set Periodic Advertising Response Data"
        case 0x2084: return "LE Set Periodic Sync Subevent"
        case 0x2085: return "LE Extended Create Connection [v2]"
        case 0x2086: return "LE Set Periodic Advertising Parameters [v2]"
        case 0x2087: return "LE Read All Local Supported Features"  // Core 6.0
        case 0x2088: return "LE Read All Remote Features"  // Core 6.0
        case 0x2089: return "LE CS Read Local Supported Capabilities"  // Core 6.0
        case 0x208A: return "LE CS Read Remote Supported Capabilities"  // Core 6.0
        case 0x208B: return "LE CS Write Cached Remote Supported Capabilities"  // Core 6.0
        case 0x208C: return "LE CS Security Enable"  // Core 6.0
        case 0x208D: return "LE CS Set Default Settings"  // Core 6.0
        case 0x208E: return "LE CS Read Remote FAE Table"  // Core 6.0
        case 0x208F: return "LE CS Write Cached Remote FAE Table"  // Core 6.0
        case 0x2090: return "LE CS Create Config"  // Core 6.0
        case 0x2091: return "LE CS Remove Config"  // Core 6.0
        case 0x2092: return "LE CS Set Channel Classification"  // Core 6.0
        case 0x2093: return "LE CS Set Procedure Parameters"  // Core 6.0
        case 0x2094: return "LE CS Procedure Enable"  // Core 6.0
        case 0x2095: return "LE CS Test"  // Core 6.0
        case 0x2096: return "LE CS Test End"  // Core 6.0
        case 0x2097: return "LE Set Host Feature [v2]"  // Core 6.0
        case 0x2098: return "LE Add Device To Monitored Advertisers List"  // Core 6.0
        case 0x2099: return "LE Remove Device From Monitored Advertisers List"  // Core 6.0
        case 0x209A: return "LE Clear Monitored Advertisers List"  // Core 6.0
        case 0x209B: return "LE Read Monitored Advertisers List Size"  // Core 6.0
        case 0x209C: return "LE Enable Monitoring Advertisers"  // Core 6.0
        case 0x209D: return "LE Frame Space Update"  // Core 6.0
        default: return nil
        }
    }

    // MARK: - Events

    /// Event name for an event code, e.g. 0x05 -> "Disconnection Complete", 0x0E -> "Command Complete",
    /// 0x3E -> "LE Meta", 0xFF -> nil (vendor).
    static func event(_ code: UInt8) -> String? {
        switch code {
        case 0x01: return "Inquiry Complete"
        case 0x02: return "Inquiry Result"
        case 0x03: return "Connection Complete"
        case 0x04: return "Connection Request"
        case 0x05: return "Disconnection Complete"
        case 0x06: return "Authentication Complete"
        case 0x07: return "Remote Name Request Complete"
        case 0x08: return "Encryption Change [v1]"
        case 0x09: return "Change Connection Link Key Complete"
        case 0x0A: return "Link Key Type Changed"
        case 0x0B: return "Read Remote Supported Features Complete"
        case 0x0C: return "Read Remote Version Information Complete"
        case 0x0D: return "QoS Setup Complete"
        case 0x0E: return "Command Complete"
        case 0x0F: return "Command Status"
        case 0x10: return "Hardware Error"
        case 0x11: return "Flush Occurred"
        case 0x12: return "Role Change"
        case 0x13: return "Number Of Completed Packets"
        case 0x14: return "Mode Change"
        case 0x15: return "Return Link Keys"
        case 0x16: return "PIN Code Request"
        case 0x17: return "Link Key Request"
        case 0x18: return "Link Key Notification"
        case 0x19: return "Loopback Command"
        case 0x1A: return "Data Buffer Overflow"
        case 0x1B: return "Max Slots Change"
        case 0x1C: return "Read Clock Offset Complete"
        case 0x1D: return "Connection Packet Type Changed"
        case 0x1E: return "QoS Violation"
        case 0x1F: return "Page Scan Mode Change"  // withdrawn
        case 0x20: return "Page Scan Repetition Mode Change"
        case 0x21: return "Flow Specification Complete"
        case 0x22: return "Inquiry Result with RSSI"
        case 0x23: return "Read Remote Extended Features Complete"
        case 0x2C: return "Synchronous Connection Complete"
        case 0x2D: return "Synchronous Connection Changed"
        case 0x2E: return "Sniff Subrating"
        case 0x2F: return "Extended Inquiry Result"
        case 0x30: return "Encryption Key Refresh Complete"
        case 0x31: return "IO Capability Request"
        case 0x32: return "IO Capability Response"
        case 0x33: return "User Confirmation Request"
        case 0x34: return "User Passkey Request"
        case 0x35: return "Remote OOB Data Request"
        case 0x36: return "Simple Pairing Complete"
        case 0x38: return "Link Supervision Timeout Changed"
        case 0x39: return "Enhanced Flush Complete"
        case 0x3B: return "User Passkey Notification"
        case 0x3C: return "Keypress Notification"
        case 0x3D: return "Remote Host Supported Features Notification"
        case 0x3E: return "LE Meta"
        case 0x40: return "Physical Link Complete"  // AMP, withdrawn
        case 0x41: return "Channel Selected"  // AMP, withdrawn
        case 0x42: return "Disconnection Physical Link Complete"  // AMP, withdrawn
        case 0x43: return "Physical Link Loss Early Warning"  // AMP, withdrawn
        case 0x44: return "Physical Link Recovery"  // AMP, withdrawn
        case 0x45: return "Logical Link Complete"  // AMP, withdrawn
        case 0x46: return "Disconnection Logical Link Complete"  // AMP, withdrawn
        case 0x47: return "Flow Spec Modify Complete"  // AMP, withdrawn
        case 0x48: return "Number Of Completed Data Blocks"
        case 0x49: return "AMP Start Test"  // AMP, withdrawn
        case 0x4A: return "AMP Test End"  // AMP, withdrawn
        case 0x4B: return "AMP Receiver Report"  // AMP, withdrawn
        case 0x4C: return "Short Range Mode Change Complete"  // AMP, withdrawn
        case 0x4D: return "AMP Status Change"  // AMP, withdrawn
        case 0x4E: return "Triggered Clock Capture"
        case 0x4F: return "Synchronization Train Complete"
        case 0x50: return "Synchronization Train Received"
        case 0x51: return "Connectionless Peripheral Broadcast Receive"
        case 0x52: return "Connectionless Peripheral Broadcast Timeout"
        case 0x53: return "Truncated Page Complete"
        case 0x54: return "Peripheral Page Response Timeout"
        case 0x55: return "Connectionless Peripheral Broadcast Channel Map Change"
        case 0x56: return "Inquiry Response Notification"
        case 0x57: return "Authenticated Payload Timeout Expired"
        case 0x58: return "SAM Status Change"
        case 0x59: return "Encryption Change [v2]"
        default: return nil  // 0xFE logo testing, 0xFF vendor-specific, others reserved
        }
    }

    // MARK: - LE Meta subevents

    /// LE Meta subevent name, e.g. 0x01 -> "LE Connection Complete", 0x02 -> "LE Advertising Report",
    /// 0x0A -> "LE Enhanced Connection Complete", 0x0D -> "LE Extended Advertising Report",
    /// 0x29 -> "LE Enhanced Connection Complete [v2]".
    static func leSubevent(_ code: UInt8) -> String? {
        switch code {
        case 0x01: return "LE Connection Complete"
        case 0x02: return "LE Advertising Report"
        case 0x03: return "LE Connection Update Complete"
        case 0x04: return "LE Read Remote Features Complete"
        case 0x05: return "LE Long Term Key Request"
        case 0x06: return "LE Remote Connection Parameter Request"
        case 0x07: return "LE Data Length Change"
        case 0x08: return "LE Read Local P-256 Public Key Complete"
        case 0x09: return "LE Generate DHKey Complete"
        case 0x0A: return "LE Enhanced Connection Complete"
        case 0x0B: return "LE Directed Advertising Report"
        case 0x0C: return "LE PHY Update Complete"
        case 0x0D: return "LE Extended Advertising Report"
        case 0x0E: return "LE Periodic Advertising Sync Established"
        case 0x0F: return "LE Periodic Advertising Report"
        case 0x10: return "LE Periodic Advertising Sync Lost"
        case 0x11: return "LE Scan Timeout"
        case 0x12: return "LE Advertising Set Terminated"
        case 0x13: return "LE Scan Request Received"
        case 0x14: return "LE Channel Selection Algorithm"
        case 0x15: return "LE Connectionless IQ Report"
        case 0x16: return "LE Connection IQ Report"
        case 0x17: return "LE CTE Request Failed"
        case 0x18: return "LE Periodic Advertising Sync Transfer Received"
        case 0x19: return "LE CIS Established"
        case 0x1A: return "LE CIS Request"
        case 0x1B: return "LE Create BIG Complete"
        case 0x1C: return "LE Terminate BIG Complete"
        case 0x1D: return "LE BIG Sync Established"
        case 0x1E: return "LE BIG Sync Lost"
        case 0x1F: return "LE Request Peer SCA Complete"
        case 0x20: return "LE Path Loss Threshold"
        case 0x21: return "LE Transmit Power Reporting"
        case 0x22: return "LE BIGInfo Advertising Report"
        case 0x23: return "LE Subrate Change"
        case 0x24: return "LE Periodic Advertising Sync Established [v2]"
        case 0x25: return "LE Periodic Advertising Report [v2]"
        case 0x26: return "LE Periodic Advertising Sync Transfer Received [v2]"
        case 0x27: return "LE Periodic Advertising Subevent Data Request"
        case 0x28: return "LE Periodic Advertising Response Report"
        case 0x29: return "LE Enhanced Connection Complete [v2]"
        case 0x2A: return "LE CIS Established [v2]"  // Core 6.0
        case 0x2B: return "LE Read All Remote Features Complete"  // Core 6.0
        case 0x2C: return "LE CS Read Remote Supported Capabilities Complete"  // Core 6.0
        case 0x2D: return "LE CS Read Remote FAE Table Complete"  // Core 6.0
        case 0x2E: return "LE CS Security Enable Complete"  // Core 6.0
        case 0x2F: return "LE CS Config Complete"  // Core 6.0
        case 0x30: return "LE CS Procedure Enable Complete"  // Core 6.0
        case 0x31: return "LE CS Subevent Result"  // Core 6.0
        case 0x32: return "LE CS Subevent Result Continue"  // Core 6.0
        case 0x33: return "LE CS Test End Complete"  // Core 6.0
        case 0x34: return "LE Monitored Advertisers Report"  // Core 6.0
        case 0x35: return "LE Frame Space Update Complete"  // Core 6.0
        default: return nil
        }
    }

    // MARK: - Error codes

    /// Controller error code names (Vol 1 Part F), e.g. 0x00 "Success", 0x02 "Unknown Connection Identifier",
    /// 0x13 "Remote User Terminated Connection", 0x3E "Connection Failed to be Established / Synchronization Timeout".
    /// Reserved codes (0x2B, 0x31, 0x33, and anything above 0x48) return nil.
    static func status(_ code: UInt8) -> String? {
        switch code {
        case 0x00: return "Success"
        case 0x01: return "Unknown HCI Command"
        case 0x02: return "Unknown Connection Identifier"
        case 0x03: return "Hardware Failure"
        case 0x04: return "Page Timeout"
        case 0x05: return "Authentication Failure"
        case 0x06: return "PIN or Key Missing"
        case 0x07: return "Memory Capacity Exceeded"
        case 0x08: return "Connection Timeout"
        case 0x09: return "Connection Limit Exceeded"
        case 0x0A: return "Synchronous Connection Limit To A Device Exceeded"
        case 0x0B: return "Connection Already Exists"
        case 0x0C: return "Command Disallowed"
        case 0x0D: return "Connection Rejected due to Limited Resources"
        case 0x0E: return "Connection Rejected Due To Security Reasons"
        case 0x0F: return "Connection Rejected due to Unacceptable BD_ADDR"
        case 0x10: return "Connection Accept Timeout Exceeded"
        case 0x11: return "Unsupported Feature or Parameter Value"
        case 0x12: return "Invalid HCI Command Parameters"
        case 0x13: return "Remote User Terminated Connection"
        case 0x14: return "Remote Device Terminated Connection due to Low Resources"
        case 0x15: return "Remote Device Terminated Connection due to Power Off"
        case 0x16: return "Connection Terminated By Local Host"
        case 0x17: return "Repeated Attempts"
        case 0x18: return "Pairing Not Allowed"
        case 0x19: return "Unknown LMP PDU"
        case 0x1A: return "Unsupported Remote Feature"
        case 0x1B: return "SCO Offset Rejected"
        case 0x1C: return "SCO Interval Rejected"
        case 0x1D: return "SCO Air Mode Rejected"
        case 0x1E: return "Invalid LMP Parameters / Invalid LL Parameters"
        case 0x1F: return "Unspecified Error"
        case 0x20: return "Unsupported LMP Parameter Value / Unsupported LL Parameter Value"
        case 0x21: return "Role Change Not Allowed"
        case 0x22: return "LMP Response Timeout / LL Response Timeout"
        case 0x23: return "LMP Error Transaction Collision / LL Procedure Collision"
        case 0x24: return "LMP PDU Not Allowed"
        case 0x25: return "Encryption Mode Not Acceptable"
        case 0x26: return "Link Key cannot be Changed"
        case 0x27: return "Requested QoS Not Supported"
        case 0x28: return "Instant Passed"
        case 0x29: return "Pairing With Unit Key Not Supported"
        case 0x2A: return "Different Transaction Collision"
        case 0x2C: return "QoS Unacceptable Parameter"
        case 0x2D: return "QoS Rejected"
        case 0x2E: return "Channel Classification Not Supported"
        case 0x2F: return "Insufficient Security"
        case 0x30: return "Parameter Out Of Mandatory Range"
        case 0x32: return "Role Switch Pending"
        case 0x34: return "Reserved Slot Violation"
        case 0x35: return "Role Switch Failed"
        case 0x36: return "Extended Inquiry Response Too Large"
        case 0x37: return "Secure Simple Pairing Not Supported By Host"
        case 0x38: return "Host Busy - Pairing"
        case 0x39: return "Connection Rejected due to No Suitable Channel Found"
        case 0x3A: return "Controller Busy"
        case 0x3B: return "Unacceptable Connection Parameters"
        case 0x3C: return "Advertising Timeout"
        case 0x3D: return "Connection Terminated due to MIC Failure"
        case 0x3E: return "Connection Failed to be Established / Synchronization Timeout"
        case 0x3F: return "MAC Connection Failed"  // AMP; "previously used" in Core 5.4
        case 0x40: return "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging"
        case 0x41: return "Type0 Submap Not Defined"
        case 0x42: return "Unknown Advertising Identifier"
        case 0x43: return "Limit Reached"
        case 0x44: return "Operation Cancelled by Host"
        case 0x45: return "Packet Too Long"
        case 0x46: return "Too Late"
        case 0x47: return "Too Early"
        case 0x48: return "Insufficient Channels"  // Core 6.0
        default: return nil
        }
    }
}
