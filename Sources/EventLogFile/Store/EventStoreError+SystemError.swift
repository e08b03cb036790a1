import EventLog
import PawtrailIO

extension EventStoreError {
    /// A failed system call as callers see it: an I/O error naming the call, the path and the errno.
    ///
    /// - Parameter error: The failed call.
    init(_ error: SystemError) {
        self = .io(operation: error.operation, path: error.path, errno: error.errno)
    }

    /// Any error as callers see it: a system call's failure becomes ``EventStoreError/io(operation:path:errno:)``,
    /// anything else stays as it is.
    ///
    /// - Parameter error: The error.
    /// - Returns: The error to report.
    static func reported(_ error: any Error) -> any Error {
        (error as? SystemError).map { EventStoreError($0) } ?? error
    }
}
