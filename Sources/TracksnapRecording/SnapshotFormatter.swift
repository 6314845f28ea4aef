package import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Writes a snapshot as people write them: sorted keys, two-space indentation, one member per
/// line, and a matcher on the line of its key (`"ts": { "$regex": "[0-9]{13}" }`), so that a
/// recorded file reads like a hand-written one and re-recording one changes only what changed.
package enum SnapshotFormatter {
    /// ```swift
    /// SnapshotFormatter.text(["ts": ["$regex": "[0-9]+"]])
    /// // {
    /// //   "ts": { "$regex": "[0-9]+" }
    /// // }
    /// ```
    /// - Returns: the text with LF line ends and a final newline.
    package static func text(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, to: &out)
        return out + "\n"
    }

    private static func write(_ value: JSONValue, indent: Int, to out: inout String) {
        let inner = String(repeating: "  ", count: indent + 1)
        let outer = String(repeating: "  ", count: indent)
        switch value {
        case .array(let items) where !items.isEmpty:
            out += "["
            for (index, item) in items.enumerated() {
                out += (index > 0 ? "," : "") + "\n" + inner
                write(item, indent: indent + 1, to: &out)
            }
            out += "\n" + outer + "]"
        case .object(let members) where !members.isEmpty:
            if members.count == 1, let (key, argument) = members.first, key.hasPrefix("$"), !isContainer(argument) {
                out += "{ " + JSONValue.string(key).serialized() + ": " + argument.serialized() + " }"
                return
            }
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                out += (index > 0 ? "," : "") + "\n" + inner + JSONValue.string(key).serialized() + ": "
                if let member = members[key] { write(member, indent: indent + 1, to: &out) }
            }
            out += "\n" + outer + "}"
        default:
            out += value.serialized()
        }
    }

    private static func isContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members): !members.isEmpty
        case .array(let items): !items.isEmpty
        default: false
        }
    }
}
