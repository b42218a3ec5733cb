import BLETrace
import MCP

/// A tool call's arguments, read with the types its input schema gives; a wrong or unknown argument is a one-
/// line error naming the tool.
struct ToolArguments {
    let tool: String
    let values: [String: Value]

    init(tool: String, values: [String: Value]?, allowed: Set<String>) throws(OptionError) {
        self.tool = tool
        self.values = values ?? [:]
        for k in self.values.keys.sorted() where !allowed.contains(k) {
            throw OptionError("\(tool): unknown argument '\(k)' (it takes \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    func string(_ key: String) throws(OptionError) -> String? {
        guard let v = values[key], !v.isNull else { return nil }
        guard let s = v.stringValue else { throw OptionError("\(tool): '\(key)' must be a string") }
        return s
    }

    func requiredString(_ key: String) throws(OptionError) -> String {
        guard let s = try string(key) else { throw OptionError("\(tool): '\(key)' is required") }
        return s
    }

    func int(_ key: String, atLeast low: Int, atMost high: Int = Int.max) throws(OptionError) -> Int? {
        guard let v = values[key], !v.isNull else { return nil }
        let n: Int?
        if let i = v.intValue {
            n = i
        } else if let d = v.doubleValue, d.rounded() == d, abs(d) < 1e15 {
            n = Int(d)
        } else {
            n = nil
        }
        guard let value = n, value >= low, value <= high else {
            let range = high == Int.max ? "\(low) or more" : "from \(low) to \(high)"
            throw OptionError("\(tool): '\(key)' must be a whole number \(range)")
        }
        return value
    }

    func double(_ key: String) throws(OptionError) -> Double? {
        guard let v = values[key], !v.isNull else { return nil }
        if let d = v.doubleValue { return d }
        if let i = v.intValue { return Double(i) }
        throw OptionError("\(tool): '\(key)' must be a number")
    }

    func bool(_ key: String) throws(OptionError) -> Bool {
        guard let v = values[key], !v.isNull else { return false }
        guard let b = v.boolValue else { throw OptionError("\(tool): '\(key)' must be true or false") }
        return b
    }

    func strings(_ key: String) throws(OptionError) -> [String] {
        guard let v = values[key], !v.isNull else { return [] }
        if let s = v.stringValue { return [s] }
        guard let list = v.arrayValue else { throw OptionError("\(tool): '\(key)' must be a list of strings") }
        var out: [String] = []
        for item in list {
            guard let s = item.stringValue else { throw OptionError("\(tool): '\(key)' must be a list of strings") }
            out.append(s)
        }
        return out
    }
}
