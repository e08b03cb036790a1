import Foundation
import Testing

/// An I/O error stops `exec` and its status is 74, whatever failed before it (the help says so): a script's caller
/// must be able to tell a run cut short from one whose commands were refused.
@Suite(.ownThreads) struct ExecIOErrorStatusProcessTests {
    @Test(.enabled(if: canMountReadOnly, "needs the right to bind-mount a directory read-only"))
    func anIOErrorAfterAnotherFailureStillExits74() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        let signup = try PawtrailProcess.run(
            ["--store", store, "exec", "-"],
            stdin: #"{"command":"account.signup","as":"u-ann","name":"Ann","email":"ann@x.test","language":"en-US"}"# + "\n")
        #expect(signup.status == 0, "\(signup.stdout)\(signup.stderr)")
        let mount = try ReadOnlyMount(dir.url.path)
        defer { mount.unmount(); withExtendedLifetime(dir) {} }
        let script = [
            #"{"command":"no.such.command","as":"u-ann"}"#,
            #"{"command":"account.signup","as":"u-bob","name":"Bob","email":"bob@x.test","language":"en-US"}"#,
            #"{"command":"account.signup","as":"u-cy","name":"Cy","email":"cy@x.test","language":"en-US"}"#,
        ].joined(separator: "\n") + "\n"
        let out = try PawtrailProcess.run(["--store", store, "exec", "-"], stdin: script)
        #expect(out.stdout.contains(#""error":"io""#), "\(out.stdout)")
        #expect(!out.stdout.contains(#""line":3"#), "the I/O error stopped the run")
        #expect(out.status == 74, "status \(out.status): \(out.stdout)")
    }
}
