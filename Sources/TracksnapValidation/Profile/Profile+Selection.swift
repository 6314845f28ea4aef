import Patterns
import TracksnapCore
import TracksnapModel

/// The requests a profile's filter selects, and those a filter pattern could not decide on.
package struct Selection {
    /// Indices of the selected requests, in capture order.
    package var selected: [Int] = []
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
    /// Runs the filter over the requests.
    ///
    /// ```swift
    /// let selection = profile.select(requests)
    /// selection.selected      // [0, 3, 4]
    /// selection.undecided     // a request whose path made a filter pattern hit PCRE2's limit
    /// ```
    package func select(_ requests: [CapturedRequest]) -> Selection {
        var selection = Selection()
        for (index, request) in requests.enumerated() {
            do throws(PatternError) {
                if try filter.decide(request) { selection.selected.append(index) }
            } catch {
                selection.undecided.append((index, error))
            }
        }
        return selection
    }
}
