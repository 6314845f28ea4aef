import ArgumentParser
import Foundation

extension Serve {
    /// The longest token file read; a token is a line, not a document.
    private static let tokenFileLimit = 4096

    /// The control API's token: `--token`, else the line `--token-file` holds, else
    /// `$TRACKSNAP_TOKEN` when it is set and not empty.
    ///
    /// The file and the environment keep the token off the command line, which every user of the
    /// machine sees in `ps`. No message repeats the token.
    ///
    /// - Parameter environment: where `TRACKSNAP_TOKEN` is looked up.
    /// - Throws: `ValidationError` when both options are given, or the file cannot be read, is
    ///   open to other users, or holds no token or more than one line.
    func controlToken(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        if let token {
            guard tokenFile == nil else {
                throw ValidationError("pass the token with --token or --token-file, not both")
            }
            return token
        }
        if let tokenFile { return try Self.readToken(from: tokenFile) }
        return environment["TRACKSNAP_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Reads a token file as ssh reads a key: refused when group or others may read or change it.
    private static func readToken(from path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ValidationError("--token-file \(path): \(String(cString: strerror(errno)))")
        }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw ValidationError("--token-file \(path): \(String(cString: strerror(errno)))")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw ValidationError(
                "--token-file \(path) is open to other users (mode 0\(String(mode, radix: 8))): run chmod 600 \(path)")
        }
        let data: Data
        do {
            data = try file.read(upToCount: tokenFileLimit + 1) ?? Data()
        } catch {
            throw ValidationError("--token-file \(path): cannot read it: \(error.localizedDescription)")
        }
        guard data.count <= tokenFileLimit else {
            throw ValidationError("--token-file \(path) is longer than \(tokenFileLimit) bytes: it holds one token")
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw ValidationError("--token-file \(path) holds no token") }
        guard !token.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw ValidationError("--token-file \(path) must hold the token alone, on one line")
        }
        return token
    }
}
