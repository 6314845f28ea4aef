import CZlib

/// Undoes a body's content encoding (gzip, deflate), refusing to inflate past a size limit so
/// that a small compressed body cannot become gigabytes (a gzip bomb).
///
/// ```swift
/// let text = try ContentDecoding.decode(bytes, encoding: "gzip", limit: 64 << 20)
/// ```
public enum ContentDecoding {
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Whether `decode` understands this `Content-Encoding` value.
    public static func isSupported(_ encoding: String) -> Bool {
        ["gzip", "x-gzip", "deflate", "identity", ""].contains(encoding.lowercased().trimmingSpaces)
    }

    /// - Parameters:
    ///   - bytes: the body as sent.
    ///   - encoding: the `Content-Encoding` header (`gzip`, `deflate`, or `identity`); several
    ///     comma-separated codings are undone from last to first.
    ///   - limit: the largest decoded size accepted, in bytes.
    /// - Throws: `Failure` for corrupt data, an unknown coding, or output over `limit`.
    public static func decode(_ bytes: [UInt8], encoding: String, limit: Int) throws(Failure) -> [UInt8] {
        var data = bytes
        for coding in encoding.split(separator: ",").map({ String($0).lowercased().trimmingSpaces }).reversed() {
            switch coding {
            case "", "identity": continue
            // 16 + 15: a gzip wrapper; 32 + 15 detects zlib or gzip; -15 raw deflate.
            case "gzip", "x-gzip": data = try inflate(data, windowBits: 16 + 15, limit: limit)
            case "deflate":
                // "deflate" is meant to be zlib-wrapped, but some clients send raw deflate.
                if let wrapped = try? inflate(data, windowBits: 32 + 15, limit: limit) {
                    data = wrapped
                } else {
                    data = try inflate(data, windowBits: -15, limit: limit)
                }
            default: throw Failure(message: "unsupported content encoding \"\(coding)\"")
            }
        }
        return data
    }

    /// Whether the bytes start with gzip's magic number.
    public static func looksGzipped(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    static func inflate(_ input: [UInt8], windowBits: Int32, limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard cztracksnap_inflate_init2(&stream, windowBits) == Z_OK else { throw Failure(message: "cannot start zlib") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: chunkBuffer[0..<(chunkBuffer.count - Int(stream.avail_out))])
                }
            } while status == Z_OK && output.count <= limit && (stream.avail_in > 0 || stream.avail_out == 0)
        }
        if output.count > limit { throw Failure(message: "decompressed body is over the limit of \(limit) bytes") }
        guard status == Z_STREAM_END else {
            throw Failure(message: status == Z_OK || status == Z_BUF_ERROR ? "compressed body is truncated" : "compressed body is corrupt")
        }
        return output
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
