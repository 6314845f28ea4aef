import Foundation
import Testing

@testable import TracksnapServer

@Suite("The server's token, checked one way for the control API and the proxy")
struct AccessTokenTests {
    static let token = AccessToken("s3cret")

    @Test(
        "the control API takes Bearer TOKEN only",
        arguments: [
            ("Bearer s3cret", true), ("bearer s3cret", true), ("Bearer  s3cret ", true), ("Bearer s3cre", false),
            ("Bearer s3cretX", false), ("Bearer S3cret", false), ("Bearer", false), ("s3cret", false),
            ("Basic dTpzM2NyZXQ=", false), ("", false),
        ])
    func control(header: String, accepted: Bool) {
        #expect(Self.token.authorizesControl(header) == accepted)
    }

    @Test("the proxy takes Bearer TOKEN, or Basic with the token as the password and any user")
    func proxy() {
        func basic(_ pair: String) -> String { "Basic " + Data(pair.utf8).base64EncodedString() }
        #expect(Self.token.authorizesProxy("Bearer s3cret"))
        #expect(Self.token.authorizesProxy(basic("anyone:s3cret")))
        #expect(Self.token.authorizesProxy(basic(":s3cret")))
        #expect(!Self.token.authorizesProxy(basic("s3cret:")))
        #expect(!Self.token.authorizesProxy(basic("u:s3cret2")))
        #expect(!Self.token.authorizesProxy("Basic not base64"))
        #expect(!Self.token.authorizesProxy(nil))
    }

    @Test("equal only when every byte is, whatever the lengths")
    func constantTimeEqual() {
        #expect(AccessToken.constantTimeEqual("", ""))
        #expect(AccessToken.constantTimeEqual("abc", "abc"))
        #expect(!AccessToken.constantTimeEqual("abc", "abd"))
        #expect(!AccessToken.constantTimeEqual("abc", "ab"))
        #expect(!AccessToken.constantTimeEqual("ab", "ab\0"))
    }
}
