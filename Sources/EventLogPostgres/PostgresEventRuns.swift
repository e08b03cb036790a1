import EventLog

/// The runs the events table indexes in place of every event: a run is consecutive events of one write that share
/// their stream's category and their recorded time. Its first row holds the run's category and length; the other
/// rows hold neither. Two partial indexes over the first rows, (run_category, position) and (recorded_at, position),
/// serve reads by category and by time, at one index entry a run where an index of every event cost one an event:
/// an append of 1,000 events to one stream writes two entries, not 2,000.
///
/// Runs need not be the longest possible: a write starts a new run even where the last one could have gone on, so
/// nothing already written changes.
struct PostgresEventRuns {
    /// For each event, the run it starts, or `nil` when it continues the run before it.
    private(set) var starts: [(category: String, length: Int32)?]

    /// The runs of events written in order at consecutive positions.
    ///
    /// - Parameters:
    ///   - count: The number of events.
    ///   - stream: The stream of the event at an index.
    ///   - recordedAt: The time of the event at an index, in microseconds.
    init(count: Int, stream: (Int) -> StreamID, recordedAt: (Int) -> Int64) {
        starts = Array(repeating: nil, count: count)
        var first = 0
        var category = Substring()
        var time: Int64 = 0
        for i in 0..<count {
            let c = stream(i).category
            let t = recordedAt(i)
            if i > 0, t == time, c.utf8.elementsEqual(category.utf8), starts[first]!.length < Int32.max {
                starts[first]!.length += 1
            } else {
                starts[i] = (String(c), 1)
                first = i
                category = c
                time = t
            }
        }
    }

    /// The runs' lengths as a column of the INSERT path: 0 where no run starts.
    var lengths: [Int64] { starts.map { $0.map { Int64($0.length) } ?? 0 } }

    /// The runs' categories as a column of the INSERT path: empty where no run starts (its length is 0 there).
    var categories: [String] { starts.map { $0?.category ?? "" } }
}
