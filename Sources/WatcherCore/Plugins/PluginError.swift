/// A plugin could not be built.
public struct PluginError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(message: String) { self.message = message }

    public var description: String { message }
}
