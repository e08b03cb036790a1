public import EventLog
import Foundation
import Synchronization

/// The business's time zone, an IANA name from the system's tzdata (`Asia/Dhaka`): where its days begin and end.
/// The dashboard's days, the agenda's and the till's receipts are days of this zone. UTC until an admin sets one
/// (`shop.set-time-zone`).
public struct BusinessTimeZone: Hashable, Sendable, CustomStringConvertible {
    /// The IANA name.
    public let identifier: String

    /// UTC, the default.
    public static let utc = BusinessTimeZone(checked: "UTC")

    private init(checked identifier: String) {
        self.identifier = identifier
    }

    /// A zone by its IANA name.
    ///
    /// - Parameter identifier: The name, as tzdata spells it (`Asia/Dhaka`, `Europe/London`, `UTC`).
    /// - Returns: The zone, or `nil` when this system's tzdata has no such zone.
    public init?(_ identifier: String) {
        guard identifier == "UTC" || Self.zone(identifier) != nil else { return nil }
        self.identifier = identifier
    }

    /// A zone named in a stored state or event: a name this system does not know reads as UTC, so a read never
    /// fails for want of a tzdata entry.
    public init(stored identifier: String) {
        self = BusinessTimeZone(identifier) ?? .utc
    }

    public var description: String { identifier }

    /// The zone's offset from UTC at an instant, in seconds.
    public func offsetSeconds(at t: Timestamp) -> Int64 {
        guard identifier != "UTC" else { return 0 }
        let hour = Self.floorDivide(t.microsecondsSinceEpoch, 3_600_000_000)
        if let cached = Self.offsets.withLock({ $0[Key(zone: identifier, hour: hour)] }) { return cached }
        let offset = Int64(Self.zone(identifier)?.secondsFromGMT(for: Date(timeIntervalSince1970: Double(hour) * 3600)) ?? 0)
        Self.offsets.withLock { cache in
            if cache.count > 200_000 { cache.removeAll(keepingCapacity: true) }
            cache[Key(zone: identifier, hour: hour)] = offset
        }
        return offset
    }

    /// The local day of an instant, in days since 1970-01-01.
    public func dayNumber(_ t: Timestamp) -> Int64 {
        Self.floorDivide(t.microsecondsSinceEpoch + offsetSeconds(at: t) * 1_000_000, 86_400_000_000)
    }

    /// The local date of an instant, `2026-12-01`.
    public func day(_ t: Timestamp) -> String {
        String(local(t).iso8601.prefix(10))
    }

    /// The local time of day of an instant, `HH:MM`.
    public func clock(_ t: Timestamp) -> String {
        String(local(t).iso8601.dropFirst(11).prefix(5))
    }

    /// The instant shifted by the zone's offset: its UTC fields spell the local date and time.
    private func local(_ t: Timestamp) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: t.microsecondsSinceEpoch + offsetSeconds(at: t) * 1_000_000)
    }

    private struct Key: Hashable { var zone: String; var hour: Int64 }
    private static let offsets = Mutex<[Key: Int64]>([:])
    private static let zones = Mutex<[String: TimeZone?]>([:])

    private static func zone(_ identifier: String) -> TimeZone? {
        if let known = zones.withLock({ $0[identifier] }) { return known }
        // Only names of the system's tzdata: Foundation also accepts abbreviations and offsets, which are not zones.
        let listed = identifier.split(separator: "/").allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
            && FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + identifier)
        let zone = listed ? TimeZone(identifier: identifier) : nil
        zones.withLock { $0[identifier] = zone }
        return zone
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return a % b < 0 ? q - 1 : q
    }
}
