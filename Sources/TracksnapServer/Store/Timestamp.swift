import Foundation

/// RFC 3339 timestamps in UTC with milliseconds, as captured requests carry them.
///
/// ```swift
/// Timestamp.now()  // "2026-11-21T08:00:00.123Z"
/// ```
enum Timestamp {
    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return text(seconds: spec.tv_sec, milliseconds: Int(spec.tv_nsec / 1_000_000))
    }

    /// The timestamp of a time since 1970 in UTC, written into its 24 bytes at once: every
    /// request recorded gets one, and interpolating its seven fields cost a sixtieth of the
    /// collector's time.
    static func text(seconds: Int, milliseconds: Int) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(unsafeUninitializedCapacity: 24) { bytes in
            var end = 0
            // A field's `width` last digits, then the byte that follows it.
            func put(_ value: Int, _ width: Int, _ after: Unicode.Scalar) {
                var value = value
                for place in stride(from: width - 1, through: 0, by: -1) {
                    bytes[end + place] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                bytes[end + width] = UInt8(ascii: after)
                end += width + 1
            }
            put(Int(parts.tm_year) + 1900, 4, "-")
            put(Int(parts.tm_mon) + 1, 2, "-")
            put(Int(parts.tm_mday), 2, "T")
            put(Int(parts.tm_hour), 2, ":")
            put(Int(parts.tm_min), 2, ":")
            put(Int(parts.tm_sec), 2, ".")
            put(milliseconds, 3, "Z")
            return end
        }
    }
}
