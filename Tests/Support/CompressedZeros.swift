import Foundation
import Synchronization

/// The wrappers `compressedZeros` writes.
public enum CompressionWrapper: Int32, Sendable {
    case gzip = 31
    case zlib = 15
    case raw = -15
}

/// Zero bytes compressed by Python's zlib, not by anything of tracksnap's, `layers` times over:
/// a decompression bomb (64 MiB of zeros are about 64 KiB of gzip, and gzip again about 200
/// bytes). Streamed a mebibyte at a time, so that making a large one costs no memory; made once
/// per test process for each shape.
///
/// ```swift
/// let bomb = try compressedZeros(64 << 20, layers: 2)  // gzip in gzip
/// ```
/// Async, and Python runs on a thread of its own: compressing hundreds of mebibytes takes seconds,
/// which would stall every test sharing the cooperative pool's few threads.
public func compressedZeros(_ count: Int, wrapper: CompressionWrapper = .gzip, layers: Int = 1) async throws -> [UInt8]
{
    let key = "\(count) \(wrapper.rawValue) \(layers)"
    if let made = madeZeros.withLock({ $0[key] }) { return made }
    let made = try await offloaded { try makeCompressedZeros(count, wrapper: wrapper, layers: layers) }
    madeZeros.withLock { $0[key] = made }
    return made
}

private let madeZeros = Mutex<[String: [UInt8]]>([:])

private func makeCompressedZeros(_ count: Int, wrapper: CompressionWrapper, layers: Int) throws -> [UInt8] {
    let script = """
        import sys, zlib
        count, wbits, layers, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        def squeeze(chunks):
            c = zlib.compressobj(9, zlib.DEFLATED, wbits)
            return b"".join([c.compress(chunk) for chunk in chunks] + [c.flush()])
        block = bytes(1 << 20)
        data = squeeze(block[:min(1 << 20, count - i)] for i in range(0, count, 1 << 20))
        for _ in range(layers - 1):
            data = squeeze([data])
        open(out, "wb").write(data)
        """
    return try withTemporaryDirectory { directory in
        let file = directory.appending(path: "bomb")
        let result = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", script, String(count), String(wrapper.rawValue), String(layers), file.path])
        guard result.status == 0 else { throw ProcessFailure(command: "python3 zlib", stderr: result.stderr) }
        return Array(try Data(contentsOf: file))
    }
}
