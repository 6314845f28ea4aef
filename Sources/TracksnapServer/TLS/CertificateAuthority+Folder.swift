import Foundation

extension CertificateAuthority {
    /// The CA's folder, opened once and checked as ssh checks `~/.ssh`: it and the files in it
    /// belong to the effective user, and nobody else may write them (nor read the key). Every file
    /// is then reached through the open folder, never through its path again, so that a folder
    /// swapped after the check is never read.
    ///
    /// ```swift
    /// let folder = try Folder(opening: "/home/ada/.local/share/tracksnap/ca")
    /// let key = try folder.contents(of: CertificateAuthority.keyFileName, secret: true)
    /// ```
    final class Folder {
        let path: String
        private let descriptor: Int32

        /// The largest file read: a key or certificate is a few hundred bytes.
        private static let maximumFileSize = 1 << 20

        /// Opens and checks `path`.
        ///
        /// - Throws: `CertificateAuthorityError` when it is not a folder, belongs to another user,
        ///   or its group or others may write it.
        init(opening path: String) throws(CertificateAuthorityError) {
            self.path = path
            descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT {
                    throw CertificateAuthorityError(
                        "the CA folder \(path) does not exist: run `tracksnap ca --ca-dir \(path)` to create the certificate authority"
                    )
                }
                throw CertificateAuthorityError("cannot open the CA folder \(path): \(Self.lastError())")
            }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let reason = Self.lastError()
                close(descriptor)
                throw CertificateAuthorityError("cannot read \(path): \(reason)")
            }
            do throws(CertificateAuthorityError) {
                try Self.checkOwner(status, of: path, what: "the CA folder")
                let mode = status.st_mode & 0o7777
                guard mode & 0o022 == 0 else {
                    throw CertificateAuthorityError(
                        "the CA folder \(path) can be written by its group or others (mode \(String(mode, radix: 8))): "
                            + "anyone who can write it can swap the CA's key and certificate. Run `chmod 700 \(path)` "
                            + "if the files in it are the ones you made, or remove it and run `tracksnap ca` again")
                }
            } catch {
                close(descriptor)
                throw error
            }
        }

        deinit {
            close(descriptor)
        }

        /// Makes `path` and every missing folder above it with mode 0700 from the start (never
        /// wider, whatever the umask: `mkdir` with 0700 can only narrow), as the XDG base
        /// directory specification asks. Folders that exist are left as they are.
        static func create(_ path: String) throws(CertificateAuthorityError) {
            var missing: [String] = []
            var current = path
            while !current.isEmpty, current != "/", !exists(current) {
                missing.append(current)
                let parent = (current as NSString).deletingLastPathComponent
                if parent == current { break }
                current = parent
            }
            for folder in missing.reversed() where mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw CertificateAuthorityError("cannot create \(folder): \(lastError())")
            }
        }

        private static func exists(_ path: String) -> Bool {
            var status = stat()
            return lstat(path, &status) == 0
        }

        /// The path of a file in the folder.
        func path(of name: String) -> String {
            (path as NSString).appendingPathComponent(name)
        }

        /// Whether the folder holds an entry of that name (of any kind).
        func contains(_ name: String) -> Bool {
            var status = stat()
            return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0
        }

        /// The text of a file in the folder, once it is checked: a regular file (not a link) of
        /// this user's that nobody else may write and, when `secret`, nobody else may read either.
        ///
        /// - Throws: `CertificateAuthorityError` naming the file and what is wrong with it.
        func contents(of name: String, secret: Bool) throws(CertificateAuthorityError) -> String {
            let file = path(of: name)
            let descriptor = openat(self.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ELOOP {
                    throw CertificateAuthorityError(
                        "\(file) is a symbolic link: the CA's files must be the files themselves")
                }
                throw CertificateAuthorityError("cannot read \(file): \(Self.lastError())")
            }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                throw CertificateAuthorityError("cannot read \(file): \(Self.lastError())")
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw CertificateAuthorityError("\(file) is not a regular file")
            }
            try Self.checkOwner(status, of: file, what: secret ? "the CA key" : "the CA certificate")
            let mode = status.st_mode & 0o7777
            if secret && mode & 0o077 != 0 {
                throw CertificateAuthorityError(
                    "the CA key \(file) can be used by others (mode \(String(mode, radix: 8))): anyone who reads it can impersonate "
                        + "any site to a device that trusts the CA. Run `chmod 600 \(file)`, or remove the folder and run `tracksnap ca` again"
                )
            }
            if mode & 0o022 != 0 {
                throw CertificateAuthorityError(
                    "the CA certificate \(file) can be written by its group or others (mode \(String(mode, radix: 8))): "
                        + "run `chmod 644 \(file)`")
            }
            guard Int(status.st_size) <= Self.maximumFileSize else {
                throw CertificateAuthorityError("\(file) is larger than \(Self.maximumFileSize) bytes: not a CA file")
            }
            var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
            var filled = 0
            while filled < bytes.count {
                let count = bytes[filled...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw CertificateAuthorityError("cannot read \(file): \(Self.lastError())") }
                if count == 0 { break }
                filled += count
            }
            guard let text = String(validating: bytes[..<filled], as: UTF8.self) else {
                throw CertificateAuthorityError("\(file) is not text (PEM)")
            }
            return text
        }

        /// Writes a file that must not exist yet: the bytes go to a temporary file created with
        /// `mode` (O_EXCL), which is then linked to its name, so that nobody ever sees a partial
        /// file or one with a wider mode, and an existing file is never replaced.
        func writeNew(_ name: String, _ text: String, mode: mode_t) throws(CertificateAuthorityError) {
            let temporary = "\(name).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
            let descriptor = openat(
                self.descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            guard descriptor >= 0 else {
                throw CertificateAuthorityError("cannot create \(path(of: temporary)): \(Self.lastError())")
            }
            defer { unlinkat(self.descriptor, temporary, 0) }
            let bytes = Array(text.utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    let reason = Self.lastError()
                    close(descriptor)
                    throw CertificateAuthorityError("cannot write \(path(of: temporary)): \(reason)")
                }
                written += count
            }
            let synced = fsync(descriptor) == 0
            close(descriptor)
            guard synced else {
                throw CertificateAuthorityError("cannot write \(path(of: temporary)): \(Self.lastError())")
            }
            guard linkat(self.descriptor, temporary, self.descriptor, name, 0) == 0 else {
                throw CertificateAuthorityError("cannot create \(path(of: name)): \(Self.lastError())")
            }
        }

        /// Refuses what does not belong to the effective user: another user who owns the CA's
        /// folder or files can swap in a key of their own.
        private static func checkOwner(_ status: stat, of path: String, what: String) throws(CertificateAuthorityError)
        {
            let user = geteuid()
            guard status.st_uid != user else { return }
            throw CertificateAuthorityError(
                "\(what) \(path) belongs to \(userName(status.st_uid)), not to \(userName(user)) who runs tracksnap: "
                    + "its owner can swap the CA's key and certificate. Use a folder of your own (--ca-dir DIR)")
        }

        /// `name (uid N)`, or `uid N` for a user without a name.
        private static func userName(_ uid: uid_t) -> String {
            guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
            return "\(String(cString: name)) (uid \(uid))"
        }

        private static func lastError() -> String {
            String(cString: strerror(errno))
        }
    }
}
