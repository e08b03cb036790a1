/// The few blocks a run reader used last, newest last, by section and index: lookups of neighbouring rows, or of one
/// row twice, then decompress a block once.
struct RecentBlocks<Value> {
    private var items: [(section: Int, index: Int, value: Value)] = []
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// The block's value, made by `make` when it is not among the recent ones (it then is, the oldest leaving).
    mutating func value(section: Int, index: Int, orMake make: () throws -> Value) rethrows -> Value {
        if let hit = items.lastIndex(where: { $0.section == section && $0.index == index }) {
            let item = items.remove(at: hit)
            items.append(item)
            return item.value
        }
        let value = try make()
        items.append((section, index, value))
        if items.count > capacity { items.removeFirst() }
        return value
    }
}
