import TracksnapJSON
import TracksnapReplay
import TracksnapTraffic

extension FuzzTarget {
    /// The cassette readers (tracksnap's, DVR's, Vinyl's, VCR's and vcrpy's, HAR; JSON and YAML):
    /// a cassette they accept is written in tracksnap's format and read back to the same requests
    /// and answers (times are written to the millisecond, so they are left out).
    static let cassette = FuzzTarget(
        "cassette", "Cassette.read on JSON and YAML, then tracksnap's own writing of it read back",
        seeds: ["Tests/Fuzz/cassette"]
    ) { bytes throws(PropertyViolation) in
        guard let (cassette, _) = try? Cassette.read(bytes, file: "fuzz.yml") else { return }
        let written = cassette.json.serialized()
        guard let (again, _) = try? Cassette.read(Array(written.utf8), file: "again.json") else {
            throw PropertyViolation(target: "cassette", "tracksnap's writing of a cassette it read cannot be read back")
        }
        guard again.interactions.map(comparable) == cassette.interactions.map(comparable) else {
            throw PropertyViolation(target: "cassette", "read back, the interactions differ from those read")
        }
    }

    /// The cassette readers, for what replay would serve: every answer accepted has a final
    /// status (200 to 599), header names that are HTTP tokens, and values with no CR, LF or NUL
    /// (which would split the answer on the wire).
    static let cassetteHeaders = FuzzTarget(
        "headers", "Cassette.read; every answer accepted can be served as one answer",
        seeds: ["Tests/Fuzz/cassette"]
    ) { bytes throws(PropertyViolation) in
        guard let (cassette, _) = try? Cassette.read(bytes, file: "fuzz.yml") else { return }
        for interaction in cassette.interactions {
            let response = interaction.response
            guard (200...599).contains(response.status) else {
                throw PropertyViolation(target: "headers", "an answer with status \(response.status) was accepted")
            }
            for header in response.headers {
                guard HTTPToken.isToken(header.name),
                    !header.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 })
                else {
                    throw PropertyViolation(target: "headers", "a header that would split the answer was accepted")
                }
            }
        }
    }

    /// An interaction without its time, headers in name order (tracksnap's format keeps them by name).
    private static func comparable(_ interaction: Interaction) -> Interaction {
        var interaction = interaction
        interaction.recordedAt = nil
        interaction.request.headers = interaction.request.headers.sorted { $0.name < $1.name }
        interaction.response.headers = interaction.response.headers.sorted { $0.name < $1.name }
        return interaction
    }
}
