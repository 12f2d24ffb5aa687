/// A sink that can check its destination without delivering anything: `watcher sinks test <id>` calls it.
public protocol SinkSelfTest: Sink {
    /// Connects, prepares what delivery needs (e.g. a table) and returns one line for the operator.
    /// - Throws: an error whose description says what is wrong, without secrets.
    func selfTest() async throws -> String
}
