import Foundation
import Synchronization
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
                let urlPointer = JSONPointer.appending(itemPointer, "url")
                let matcher = parser.matcher(url, at: urlPointer)
                parser.warnNeverMatching(.url, matcher, at: urlPointer)
                settings.routes.append(
                    Route(url: matcher, type: type, pointer: JSONPointer.appending(itemPointer, "type")))
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
        let resolved = descriptors.map { descriptor -> String? in
            do throws(InputError) {
                return try workspace.path(descriptor.path, field: "descriptor set")
            } catch {
                report(descriptor.pointer, error.diagnostics.first?.message ?? "\(error)")
                return nil
            }
        }
        let paths = resolved.compactMap(\.self)
        // A profile loaded again while its descriptor sets are unchanged gets the decoder it got
        // then: one identity, so that the decodings kept under it are shared.
        let key = paths.joined(separator: "\n") + "\n" + (document.value["protobuf"]?.serialized() ?? "")
        let stamps = paths.map(LoadedProtobufDecoders.Stamp.init(path:))
        if paths.count == descriptors.count, let kept = workspace.protobufDecoders.kept(key, stamps) { return kept }
        // Every set that can be opened is read, so that each bad one is told, not the first.
        var sets: [ProtobufDescriptors] = []
        for (descriptor, path) in zip(descriptors, resolved) {
            guard let path else { continue }
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
        let made: [VendorDecoder] = [
            .protobuf(merged, routes: routes.map { ProtobufRoute(url: FieldFilter(.url, $0.url), type: $0.type) })
        ]
        return workspace.protobufDecoders.keep(made, key, stamps)
    }
}

/// The protobuf decoders a workspace's profiles made (`ProtobufSettings.decoders`), each kept
/// with what its descriptor sets were when read (path, modification time, size, file number):
/// a profile loaded again (a stream's `?profile=`, a validate call's profile, on the server's one
/// workspace) gets the decoder it got before, with its `VendorDecoder.identity`, so that what
/// the decoder made of a request is shared (`DecodeCache`); a changed descriptor set, or
/// changed routes, makes a new one. At most `limit` are kept.
package final class LoadedProtobufDecoders: Sendable {
    /// What a descriptor set's file was when it was read; nil parts when it could not be looked at.
    struct Stamp: Hashable, Sendable {
        let path: String
        let modified: Date?
        let size: UInt64?
        let file: UInt64?

        init(path: String) {
            self.path = path
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            modified = attributes?[.modificationDate] as? Date
            size = (attributes?[.size] as? NSNumber)?.uint64Value
            file = (attributes?[.systemFileNumber] as? NSNumber)?.uint64Value
        }

        var isKnown: Bool { modified != nil && size != nil }
    }

    private let decoders = Mutex<[String: (stamps: [Stamp], decoders: [VendorDecoder])]>([:])
    static let limit = 64

    package init() {}

    /// The decoders made for `key` when its files were as `stamps` say.
    func kept(_ key: String, _ stamps: [Stamp]) -> [VendorDecoder]? {
        decoders.withLock { kept in
            guard let entry = kept[key], entry.stamps == stamps, stamps.allSatisfy(\.isKnown) else { return nil }
            return entry.decoders
        }
    }

    /// Keeps the decoders made for `key` from files as `stamps` say, and returns those to use:
    /// the ones another load of the same files kept meanwhile, when one did (two streams that
    /// connect at once both make a decoder; the first kept is the one both use), else `made`.
    func keep(_ made: [VendorDecoder], _ key: String, _ stamps: [Stamp]) -> [VendorDecoder] {
        guard stamps.allSatisfy(\.isKnown) else { return made }
        return decoders.withLock { kept in
            if let entry = kept[key], entry.stamps == stamps { return entry.decoders }
            if kept[key] == nil, kept.count >= Self.limit { kept.removeAll() }
            kept[key] = (stamps, made)
            return made
        }
    }
}
