import Synchronization
import TracksnapTraffic
import TracksnapValidation

/// What one captured request carries, searched at most once each however many readers ask
/// (`CaptureStore.carriedSecrets(of:)`): its secrets, and the personal data its fields name.
/// A reader that asks while another searches waits for that search rather than making its own.
final class CarriedBox: Sendable {
    private let secrets = Mutex<Set<String>?>(nil)
    private let personalData = Mutex<[String: String]?>(nil)

    /// The request's secrets (`CapturedRequest.carriedSecrets`).
    func secrets(of request: CapturedRequest) -> Set<String> {
        secrets.withLock { found in
            if let found { return found }
            let searched = request.carriedSecrets
            found = searched
            return searched
        }
    }

    /// The request's personal data, each value with its mask (`CapturedRequest.carriedPersonalData`).
    func personalData(of request: CapturedRequest) -> [String: String] {
        personalData.withLock { found in
            if let found { return found }
            let searched = request.carriedPersonalData(view: request.validationView)
            found = searched
            return searched
        }
    }
}
