#if canImport(Glibc)
import Glibc
#endif

/// The `pawtrail` command: parses the arguments, runs the subcommand, exits with its status.
public enum PawtrailCommand {
    /// Runs the process's command line and exits.
    public static func main() async {
        exit(0)
    }
}
