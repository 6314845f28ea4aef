import Foundation
import Testing
import TracksnapDecoders
import TracksnapTestSupport
import TracksnapValidation

/// A profile that names a protobuf descriptor set, loaded again through one workspace (the
/// server's: each stream's `?profile=`, each validate call), gets the decoder it got before while
/// the set is unchanged, so that what the decoder made of a request is shared; a set protoc
/// writes anew is read again (`LoadedProtobufDecoders`).
@Suite(
    "A profile's protobuf decoder is made once while its descriptor set is unchanged", .tags(.process), .leftToMakeTest)
struct LoadedProtobufDecodersTests {
    static let profile = """
        {
          "protobuf": {
            "descriptors": "shop.pb",
            "messages": [{ "url": "https://api.shop.example/v1/checkout", "type": "shop.v1.Checkout" }]
          }
        }
        """

    /// `shop.proto` with `fields`, compiled into `shop.pb` by protoc.
    static func compile(_ fields: String, in directory: URL) throws {
        try compileDescriptorSet(
            "syntax = \"proto3\";\npackage shop.v1;\nmessage Checkout {\n\(fields)\n}\n", named: "shop", in: directory)
    }

    static func identities(_ reference: String, _ workspace: Workspace) throws -> [Int] {
        try Profile.load(reference, workspace: workspace).messageDecoders.map(\.identity)
    }

    @Test(
        "loaded twice through one workspace, unchanged: one decoder identity; after protoc writes the set anew, a new one, then kept again"
    )
    func keptWhileUnchanged() throws {
        try withTemporaryDirectory { directory in
            try Self.compile("string order_id = 1;", in: directory)
            try Self.profile.write(to: directory.appending(path: "shop.json"), atomically: true, encoding: .utf8)
            let workspace = Workspace(root: directory.path)
            let first = try Self.identities("shop.json", workspace)
            try #require(first.count == 1)
            #expect(try Self.identities("shop.json", workspace) == first)
            // Another workspace (another run of the command line) makes its own.
            #expect(try Self.identities("shop.json", Workspace(root: directory.path)) != first)

            try Self.compile("string order_id = 1;\n  string session_id = 2;", in: directory)
            let changed = try Self.identities("shop.json", workspace)
            #expect(changed.count == 1)
            #expect(changed != first)
            #expect(try Self.identities("shop.json", workspace) == changed)
        }
    }
}
