public import Foundation
import Testing

/// `text` written as `NAME.proto` in `directory` and compiled by protoc (Debian's
/// `protobuf-compiler`, `make test-tools`) into the descriptor set `NAME.pb` beside it.
///
/// ```swift
/// try compileDescriptorSet("syntax = \"proto3\"; package shop.v1; message Checkout { string order_id = 1; }", named: "shop", in: directory)
/// ```
public func compileDescriptorSet(_ text: String, named name: String, in directory: URL) throws {
    let protoc = URL(fileURLWithPath: "/usr/bin/protoc")
    try #require(
        FileManager.default.isExecutableFile(atPath: protoc.path),
        "protoc is missing: run `make test-tools`, which installs Debian's protobuf-compiler")
    try text.write(to: directory.appending(path: "\(name).proto"), atomically: true, encoding: .utf8)
    let compiled = try runProcess(
        protoc, ["--include_imports", "--descriptor_set_out=\(name).pb", "-I.", "\(name).proto"], in: directory)
    try #require(compiled.status == 0, "\(compiled.stderr)")
}
