public import PawtrailJSON

/// Turns a state's JSON into key paths and values, so two states can be compared key by key: records that start
/// with a `key` member (dictionaries, see `Keyed`) are addressed by that key, other arrays by index.
public enum StateFlattener {
    /// The key paths and values of a JSON value.
    public static func flatten(_ value: JSONValue) -> [String: String] {
        var out: [String: String] = [:]
        walk(value, path: "", into: &out)
        return out
    }

    private static func walk(_ value: JSONValue, path: String, into out: inout [String: String]) {
        switch value {
        case .object(let pairs):
            if pairs.isEmpty { out[path] = "{}" }
            for p in pairs where !(p.key == "key" && isKeyed(value)) {
                walk(p.value, path: path.isEmpty ? p.key : path + "." + p.key, into: &out)
            }
        case .array(let items):
            if items.isEmpty { out[path] = "[]" }
            for (n, item) in items.enumerated() {
                if case .string(let key)? = item["key"] {
                    walk(item, path: path + "[" + key + "]", into: &out)
                } else {
                    walk(item, path: path + "[\(n)]", into: &out)
                }
            }
        default:
            out[path] = value.serialized
        }
    }

    private static func isKeyed(_ value: JSONValue) -> Bool {
        if case .string? = value["key"] { return true }
        return false
    }
}
