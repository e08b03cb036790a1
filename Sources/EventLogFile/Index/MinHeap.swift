/// A binary min-heap, for the k-way merges of sorted index files (one cursor per file, the smallest on top).
struct MinHeap<Element: Comparable> {
    private var items: [Element] = []

    /// The smallest element, if any.
    var peek: Element? { items.first }

    mutating func push(_ e: Element) {
        items.append(e)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i] < items[parent] else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1
            let r = l + 1
            var m = i
            if l < items.count, items[l] < items[m] { m = l }
            if r < items.count, items[r] < items[m] { m = r }
            guard m != i else { break }
            items.swapAt(i, m)
            i = m
        }
        return top
    }
}
