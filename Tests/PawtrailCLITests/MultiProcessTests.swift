import Foundation
import Testing

/// Several `pawtrail` processes writing one store at once: the writer lock serializes them, expected versions
/// keep them honest, and nothing is lost, duplicated or out of place.
@Suite(.ownThreads) struct MultiProcessTests {
    /// A worker appends `count` increments to `counter`, each at the version it just read, retrying on exit 75.
    private func workerScript(store: String, worker: Int, count: Int) -> String {
        """
        set -u
        bin='\(PawtrailProcess.executable.path)'
        i=0
        while [ $i -lt \(count) ]; do
          v=$("$bin" --store '\(store)' log read --stream counter --backward --limit 1 --json | sed -n 's/.*"version":\\([0-9]*\\).*/\\1/p')
          if [ -z "$v" ]; then expected=no-stream; else expected=$v; fi
          "$bin" --store '\(store)' log append --stream counter --type Incremented \\
            --data "{\\"worker\\":\(worker),\\"i\\":$i}" --expected-version "$expected" >/dev/null 2>&1
          rc=$?
          if [ $rc -eq 0 ]; then
            i=$((i+1))
            "$bin" --store '\(store)' log append --stream "worker-\(worker)" --type Counted --data "{\\"i\\":$i}" >/dev/null || exit 90
          elif [ $rc -ne 75 ]; then
            echo "append exited $rc" >&2; exit $rc
          fi
        done
        """
    }

    @Test func `concurrent writers with expected versions lose nothing and duplicate nothing`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("store")
        let workers = 4
        let perWorker = 12
        var processes: [Process] = []
        for w in 0..<workers {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", workerScript(store: store, worker: w, count: perWorker)]
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            processes.append(p)
        }
        for p in processes {
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
        }

        let counter = try PawtrailProcess.run(["--store", store, "log", "read", "--stream", "counter", "--json"])
        #expect(counter.status == 0)
        let events = counter.lines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(events.count == workers * perWorker)
        // Versions 0..n-1, each exactly once: no lost update, no duplicate version.
        #expect(events.map { $0["version"] as! Int } == Array(0..<(workers * perWorker)))
        // Every worker's increments are all there, in its own order.
        for w in 0..<workers {
            let mine = events.compactMap { e -> Int? in
                let data = e["data"] as! [String: Any]
                return data["worker"] as? Int == w ? data["i"] as? Int : nil
            }
            #expect(mine == Array(0..<perWorker))
        }
        // Positions across all streams are gapless.
        let all = try PawtrailProcess.run(["--store", store, "log", "read", "--all", "--json"])
        let positions = all.lines.map { (try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])["position"] as! Int }
        #expect(positions == Array(0..<(2 * workers * perWorker)))
        let verify = try PawtrailProcess.run(["--store", store, "log", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }
}
