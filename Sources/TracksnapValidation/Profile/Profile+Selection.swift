package import Patterns
import TracksnapCore
package import TracksnapDecoders
package import TracksnapModel

/// The requests a profile's filter selects, with what its decoders made of each, and those a
/// filter pattern could not decide on: what validation checks and recording learns from.
package struct Selection {
    /// Indices of the selected requests, in capture order.
    package var selected: [Int] = []
    /// What the profile's decoders made of each selected request (`selected`'s order);
    /// `.unclaimed` for all when events were not asked for.
    package var decoded: [DecodeResult] = []
    /// Requests a filter pattern hit PCRE2's match or depth limit on: neither selected nor left
    /// out silently, but reported.
    package var undecided: [(index: Int, error: PatternError)] = []

    /// How a person reads an undecided request: which one, and which pattern failed how.
    package func message(_ item: (index: Int, error: PatternError), in requests: [CapturedRequest]) -> String {
        let request = requests[item.index]
        return
            "the profile's filter cannot decide on request #\(item.index + 1) \(request.method) \(request.urlWithoutQuery): "
            + "pattern \"\(item.error.pattern)\": \(item.error.message)"
    }
}

extension Profile {
    /// Whether `tracksnap record` writes decoded events rather than the requests that carried
    /// them: the profile names decoders, or reads protobuf by its descriptor set.
    package var recordsEvents: Bool { decoders.recordsEvents || !messageDecoders.isEmpty }

    /// Runs the filter over the requests, and the decoders over the selected ones.
    ///
    /// ```swift
    /// let selection = profile.select(requests, decodingEvents: true)
    /// selection.selected      // [0, 3, 4]
    /// selection.decoded       // [.events([…]), .unclaimed, .failed(…)]
    /// selection.undecided     // a request whose path made a filter pattern hit PCRE2's limit
    /// ```
    package func select(_ requests: [CapturedRequest], decodingEvents: Bool = false) -> Selection {
        var selection = Selection()
        let decoders = decodingEvents ? messageDecoders + resolvedDecoders : []
        for (index, request) in requests.enumerated() {
            do throws(PatternError) {
                guard try filter.decide(request) else { continue }
                selection.selected.append(index)
                selection.decoded.append(decoders.isEmpty ? .unclaimed : Decoders.decode(request, using: decoders))
            } catch {
                selection.undecided.append((index, error))
            }
        }
        return selection
    }
}
