import Foundation
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// A profile's `"protobuf"` key: the descriptor sets its bodies are read with, and the message
/// type of the requests at each URL.
///
/// ```json
/// "protobuf": {
///   "descriptors": "shop.pb",
///   "messages": [{ "url": { "$regex": "https://api\\.shop\\.example/v1/checkout" }, "type": "shop.v1.Checkout" }]
/// }
/// ```
/// `descriptors` is a path (or a list of them) to what `protoc --include_imports
/// --descriptor_set_out=shop.pb shop.proto` writes, relative to the profile's directory and
/// read through the workspace; `url` is a literal or a matcher for the URL without its query.
struct ProtobufSettings: Sendable {
    struct Descriptor: Sendable {
        /// As the profile wrote it, and as it is opened.
        var written: String
        var path: String
        var pointer: String
    }
    struct Route: Sendable {
        var url: Matcher
        var type: String
        var pointer: String
    }
    var descriptors: [Descriptor] = []
    var routes: [Route] = []

    static let shape =
        "\"protobuf\" is an object: {\"descriptors\": \"shop.pb\" (protoc --descriptor_set_out), \"messages\": [{\"url\": …, \"type\": \"shop.v1.Checkout\"}]}"

    /// The key in a profile's table (`ProfileKey.all`).
    static var key: ProfileKey {
        ProfileKey("protobuf") { value, pointer, profile, parser in
            guard let object = value.objectValue else {
                parser.error(pointer, shape)
                return false
            }
            for key in object.keys.sorted() where key != "descriptors" && key != "messages" {
                parser.keyError(
                    JSONPointer.appending(pointer, key),
                    "unknown key \"\(key)\" in \"protobuf\"; it has descriptors, messages")
            }
            var settings = ProtobufSettings()
            let descriptorsPointer = JSONPointer.appending(pointer, "descriptors")
            let written = object["descriptors"].flatMap {
                $0.stringValue.map { [$0] } ?? $0.arrayValue?.compactMap(\.stringValue)
            }
            guard let written, !written.isEmpty, written.count == (object["descriptors"]?.arrayValue?.count ?? 1),
                !written.contains(where: \.isEmpty)
            else {
                parser.error(
                    object["descriptors"] == nil ? pointer : descriptorsPointer,
                    "\"descriptors\" is a descriptor set's path (\"shop.pb\", relative to the profile; protoc --include_imports --descriptor_set_out=shop.pb shop.proto writes one) or a list of them"
                )
                return false
            }
            let directory = (profile.file.map { ($0 as NSString).deletingLastPathComponent }) ?? ""
            let isList = object["descriptors"]?.arrayValue != nil
            settings.descriptors = written.enumerated().map { index, path in
                Descriptor(
                    written: path,
                    path: path.hasPrefix("/") || directory.isEmpty
                        ? path : (directory as NSString).appendingPathComponent(path),
                    pointer: isList ? JSONPointer.appending(descriptorsPointer, index) : descriptorsPointer)
            }
            let messagesPointer = JSONPointer.appending(pointer, "messages")
            guard let messages = object["messages"]?.arrayValue, !messages.isEmpty else {
                parser.error(
                    object["messages"] == nil ? pointer : messagesPointer,
                    "\"messages\" lists which message type the body of the requests at a URL is: [{\"url\": {\"$regex\": \"https://api\\\\.shop\\\\.example/v1/.*\"}, \"type\": \"shop.v1.Checkout\"}]"
                )
                return false
            }
            for (index, item) in messages.enumerated() {
                let itemPointer = JSONPointer.appending(messagesPointer, index)
                guard let route = item.objectValue, let url = route["url"], let type = route["type"]?.stringValue,
                    !type.isEmpty
                else {
                    parser.error(
                        itemPointer,
                        "a message route is {\"url\": a URL or a matcher of it (without the query), \"type\": a message type's full name}"
                    )
                    continue
                }
                for key in route.keys.sorted() where key != "url" && key != "type" {
                    parser.keyError(
                        JSONPointer.appending(itemPointer, key), "unknown key \"\(key)\"; a message route has url, type"
                    )
                }
                settings.routes.append(
                    Route(
                        url: parser.matcher(url, at: JSONPointer.appending(itemPointer, "url")), type: type,
                        pointer: JSONPointer.appending(itemPointer, "type")))
            }
            profile.protobuf = settings
            return true
        }
    }

    /// The decoder the settings make: each descriptor set read through the workspace, each
    /// route's type looked up in them. A file that cannot be read or is no descriptor set, and a
    /// type none of them defines, is an error at its place in the profile naming the file and the type.
    func decoders(document: JSONDocument, workspace: Workspace, _ diagnostics: inout [Diagnostic]) -> [VendorDecoder] {
        func report(_ pointer: String, _ message: String) {
            diagnostics.append(
                Diagnostic(
                    .error, file: document.file, path: pointer, location: document.locations[pointer], message: message)
            )
        }
        var sets: [ProtobufDescriptors] = []
        for descriptor in descriptors {
            let path: String
            do throws(InputError) {
                path = try workspace.path(descriptor.path, field: "descriptor set")
            } catch {
                report(descriptor.pointer, error.diagnostics.first?.message ?? "\(error)")
                continue
            }
            guard let contents = FileManager.default.contents(atPath: path) else {
                let exists = FileManager.default.fileExists(atPath: path)
                report(
                    descriptor.pointer,
                    "descriptor set \(descriptor.path) cannot be read: \(exists ? "it is not a readable file" : "no such file") (protoc --include_imports --descriptor_set_out=\(descriptor.written) FILE.proto writes one)"
                )
                continue
            }
            do throws(ProtobufDescriptorError) {
                sets.append(try ProtobufDescriptors(bytes: Array(contents)))
            } catch {
                report(
                    descriptor.pointer,
                    "\(descriptor.path) is not a descriptor set protoc writes (--descriptor_set_out): \(error.reason)")
            }
        }
        guard sets.count == descriptors.count else { return [] }
        let merged = ProtobufDescriptors(merging: sets)
        var known = true
        for route in routes where !merged.defines(route.type) {
            known = false
            let files = descriptors.map(\.path).joined(separator: ", ")
            let meant = NearestNames.didYouMean(route.type, among: merged.messageTypes).map { " (\($0))" } ?? ""
            report(
                route.pointer,
                "no message type \"\(route.type)\" in \(files)\(meant); it defines \(merged.messageTypes.joined(separator: ", ")) (a type is named in full, with its package)"
            )
        }
        guard known else { return [] }
        return [
            .protobuf(merged, routes: routes.map { ProtobufRoute(url: FieldFilter(.url, $0.url), type: $0.type) })
        ]
    }
}
