import PawtrailCLI

@main
struct Entrypoint {
    static func main() async {
        await PawtrailCommand.main()
    }
}
