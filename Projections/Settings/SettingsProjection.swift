public import Events

/// The shop's read policy: whether every read must name its reader (`shop set-read-policy`). Every view asks it
/// before it answers; kept as a read model, a view whose read models are caught up reads nothing of the log.
public enum SettingsProjection: Projection {
    /// The settings.
    public struct State: ProjectionState {
        /// Whether every read must name its reader (`--as`).
        public var requireViewer = false

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            requireViewer = try r.bool("requireViewer")
        }

        public func write(to w: inout some FieldWriter) {
            w.bool("requireViewer", requireViewer)
        }
    }

    public static let name = "settings"
    public static let schemaVersion = 1
    public static let summary = "The shop's read policy: whether every read names its reader."
    public static let eventTypes = types(ReadPolicySet.self)

    public static func apply(_ state: inout State, _ event: ProjectedEvent) throws(ProjectionError) {
        if let e = event.event as? ReadPolicySet { state.requireViewer = e.requireViewer }
    }
}
