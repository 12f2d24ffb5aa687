import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a config path cannot be read, in words an operator acts on: "is a directory", "is a symlink loop",
/// "cannot be read: permission denied", and "does not exist" (with the `watcher init` hint) only when nothing is
/// there at all.
enum ConfigFile {
    /// The problem with `path`, or `nil` when it is a readable regular file (or anything else `open` accepts).
    static func problem(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            var link = stat()
            if code == ENOENT, lstat(path, &link) == 0 {
                return "config file \(path) is a symbolic link to a file that does not exist"
            }
            return message(path, errno: code)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            return "config file \(path) is a directory; name the file in it, such as \(path)/watcher.json"
        }
        let descriptor = open(path, O_RDONLY)
        if descriptor < 0 { return message(path, errno: errno) }
        close(descriptor)
        return nil
    }

    /// The message for a failed `stat` or `open` of `path` with `errno` (pure, so each reason is testable as root).
    static func message(_ path: String, errno code: Int32) -> String {
        switch code {
        case ENOENT: "config file \(path) does not exist; `watcher init` writes one"
        case ELOOP: "config file \(path) is a symlink loop (a link that points back to itself)"
        case EACCES, EPERM: "config file \(path) cannot be read: permission denied"
        case ENOTDIR: "config file \(path) cannot be read: a part of the path is not a directory"
        case EISDIR: "config file \(path) is a directory"
        default: "config file \(path) cannot be read: \(String(cString: strerror(code)))"
        }
    }
}
