/// A command's failure with its exit code: 1 runtime failure, 2 bad usage or bad config.
public struct CommandFailure: Error, CustomStringConvertible {
    /// The process exit code.
    public var exitCode: Int32
    /// What to print (to standard error).
    public var message: String

    /// Bad usage or bad config: exit 2.
    public static func usage(_ message: String) -> CommandFailure { CommandFailure(exitCode: 2, message: message) }

    /// A runtime failure: exit 1.
    public static func runtime(_ message: String) -> CommandFailure { CommandFailure(exitCode: 1, message: message) }

    public var description: String { message }
}
