import Foundation
import Inflation
import Testing
import TracksnapTestSupport

@Suite("Inflation within a byte budget")
struct InflationTests {
    @Test(
        "a stream within the budget inflates whole and is charged its size",
        arguments: [
            CompressionWrapper.gzip, .zlib, .raw,
        ])
    func withinBudget(wrapper: CompressionWrapper) async throws {
        let compressed = try await compressedZeros(300_000, wrapper: wrapper)
        var budget = InflationBudget(limit: 1 << 20)
        let format: Inflation.Format = wrapper == .raw ? .raw : wrapper == .gzip ? .gzip : .zlibOrGzip
        let plain = try Inflation.inflate(compressed, format: format, budget: &budget)
        #expect(plain == [UInt8](repeating: 0, count: 300_000))
        #expect(budget.spent == 300_000)
        #expect(Inflation.looksGzipped(compressed) == (wrapper == .gzip))
    }

    @Test("a stream that ends exactly at the limit fits; one byte more does not")
    func exactLimit() async throws {
        let compressed = try await compressedZeros(100_000)
        var exact = InflationBudget(limit: 100_000)
        #expect(try Inflation.inflate(compressed, format: .gzip, budget: &exact).count == 100_000)
        #expect(exact.remaining == 0)
        var short = InflationBudget(limit: 99_999)
        #expect(throws: InflationError.self) { try Inflation.inflate(compressed, format: .gzip, budget: &short) }
    }

    @Test("a bomb stops at the first byte beyond the budget, with an error naming the limit, long before its end")
    func bomb() async throws {
        let bomb = try await compressedZeros(32 << 20)  // 32 MiB of zeros in 32 KiB
        #expect(bomb.count < 64 << 10)
        let clock = ContinuousClock()
        var budget = InflationBudget(limit: 1 << 20)
        let start = clock.now
        let error = try #require(throws: InflationError.self) {
            try Inflation.inflate(bomb, format: .gzip, budget: &budget)
        }
        let stopped = clock.now - start
        #expect(error.isOverBudget && error.limit == 1 << 20)
        #expect(error.description == "inflates beyond 1048576 bytes")
        #expect(budget.remaining == 0)
        // The whole stream, for comparison: 32 times the work.
        var ample = InflationBudget(limit: 32 << 20)
        let wholeStart = clock.now
        #expect(try Inflation.inflate(bomb, format: .gzip, budget: &ample).count == 32 << 20)
        let whole = clock.now - wholeStart
        #expect(stopped * 4 < whole, "stopping at 1 MiB took \(stopped), inflating all 32 MiB \(whole)")
    }

    @Test("layers share one budget: gzip in gzip is refused though each layer alone fits")
    func nestedLayersShareTheBudget() async throws {
        let inner = try await compressedZeros(600_000)
        let nested = try await compressedZeros(600_000, layers: 2)
        var budget = InflationBudget(limit: 1 << 20)
        let middle = try Inflation.inflate(nested, format: .gzip, budget: &budget)
        #expect(middle == inner)
        #expect(budget.spent == inner.count)
        // 600,000 bytes fit in 1 MiB on their own, not after the outer layer's bytes.
        var alone = InflationBudget(limit: 600_000)
        #expect(try Inflation.inflate(inner, format: .gzip, budget: &alone).count == 600_000)
        var shared = InflationBudget(limit: 600_000 + inner.count - 1)
        _ = try Inflation.inflate(nested, format: .gzip, budget: &shared)
        #expect(throws: InflationError.self) { try Inflation.inflate(middle, format: .gzip, budget: &shared) }
    }

    @Test("truncated and corrupt streams are errors that spend nothing")
    func badStreams() async throws {
        let compressed = try await compressedZeros(10_000)
        var budget = InflationBudget(limit: 1 << 20)
        let truncated = try #require(throws: InflationError.self) {
            try Inflation.inflate(Array(compressed.prefix(compressed.count / 2)), format: .gzip, budget: &budget)
        }
        #expect(truncated.description == "compressed data is truncated" && !truncated.isOverBudget)
        let corrupt = try #require(throws: InflationError.self) {
            try Inflation.inflate([0x1F, 0x8B, 9, 9, 9, 9], format: .gzip, budget: &budget)
        }
        #expect(corrupt.description == "compressed data is corrupt")
        #expect(budget.spent == 0)
    }
}
