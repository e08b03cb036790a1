import Foundation
import PawtrailIO
import Testing

@Suite("ThreadPriority")
struct ThreadPriorityTests {
    /// The nice value of the calling thread, from the kernel's own account of it (field 19 of its stat line).
    static func currentThreadNice() throws -> Int {
        let stat = try String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)
        // The command name in parentheses may hold spaces: count fields from after its closing parenthesis.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        return try #require(Int(fields[16]))
    }

    @Test
    func lowersOnlyTheCallingThread() throws {
        let before = try Self.currentThreadNice()
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var lowered: Result<Int, any Error>?
        let thread = Thread {
            lowered = Result {
                try ThreadPriority.lowerCurrentThread()
                return try Self.currentThreadNice()
            }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(try lowered?.get() == Int(ThreadPriority.background))
        #expect(try Self.currentThreadNice() == before)
    }
}
