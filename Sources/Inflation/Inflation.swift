import CZlib

/// zlib's inflation, bounded: the output never grows past what an `InflationBudget` has left.
///
/// ```swift
/// var budget = InflationBudget(limit: 1 << 20)
/// let plain = try Inflation.inflate(gzipBytes, format: .gzip, budget: &budget)
/// ```
///
/// Output is taken from zlib a chunk (64 KiB) at a time into an array whose capacity never
/// exceeds the budget's remainder (plus one byte, to tell "exactly at the limit" from "beyond
/// it"), and the inflation stops at the first byte beyond: a bomb costs at most its budget, in
/// memory and in time.
package enum Inflation {
    /// The wrapper around the deflate data.
    package enum Format: Sendable, Hashable {
        /// RFC 1952, as `Content-Encoding: gzip` and gzip files.
        case gzip
        /// RFC 1950 or RFC 1952, told from the header.
        case zlibOrGzip
        /// RFC 1951 with no wrapper, as some clients send `Content-Encoding: deflate`.
        case raw

        /// zlib's `windowBits` for the format: 15 (a 32 KiB window), plus 16 for gzip, plus 32
        /// for automatic detection, negated for raw deflate.
        var windowBits: Int32 {
            switch self {
            case .gzip: 16 + 15
            case .zlibOrGzip: 32 + 15
            case .raw: -15
            }
        }
    }

    /// The most zlib is asked to write at a time.
    static let chunk = 64 * 1024

    /// Inflates one stream, spending its output from `budget`.
    ///
    /// - Parameters:
    ///   - input: the compressed bytes: one whole stream; bytes after its end are ignored.
    ///   - format: the wrapper.
    ///   - budget: what the output may spend; on success it is charged the output's size.
    /// - Returns: the inflated bytes.
    /// - Throws: `InflationError`: over the budget (charged to its limit), truncated, corrupt.
    package static func inflate(_ input: [UInt8], format: Format, budget: inout InflationBudget) throws(InflationError)
        -> [UInt8]
    {
        // Less one, so that one byte past the allowance can always be asked for.
        let allowance = min(budget.remaining, Int.max - 1)
        var stream = z_stream()
        guard cztracksnap_inflate_init2(&stream, format.windowBits) == Z_OK else { throw InflationError(.unavailable) }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(Self.chunk, allowance + 1))
        var status: Int32 = Z_OK
        var input = input
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            repeat {
                // One byte past the allowance tells a stream that ends at it from one beyond it.
                let room = min(chunk.count, allowance + 1 - output.count)
                let produced = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(room)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return room - Int(stream.avail_out)
                }
                if output.capacity < output.count + produced {
                    // Doubling, as `append` would, but never past the allowance.
                    output.reserveCapacity(min(max(output.capacity * 2, output.count + produced), allowance + 1))
                }
                output.append(contentsOf: chunk[..<produced])
            } while status == Z_OK && output.count <= allowance && (stream.avail_in > 0 || stream.avail_out == 0)
        }
        if output.count > allowance {
            try budget.spend(output.count)
        }
        guard status == Z_STREAM_END else {
            throw InflationError(status == Z_OK || status == Z_BUF_ERROR ? .truncated : .corrupt)
        }
        try budget.spend(output.count)
        return output
    }

    /// Whether the bytes start with gzip's magic number (`1f 8b`).
    package static func looksGzipped(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        return iterator.next() == 0x1F && iterator.next() == 0x8B
    }
}
