import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals
import WatcherConfiguration
import WatcherCore
import WatcherEngine
import WatcherJSON
import WatcherObservability

/// Runs the runtime's parts (scheduler, delivery, engine), each in a group of its own, and applies a reload of the
/// config on SIGHUP (`watcher reload`, systemd's `ExecReload`): the file is loaded and checked as `watcher check`
/// does; an invalid one is refused with every problem logged and the daemon runs on unchanged. A valid one is
/// compared with the running config (``ConfigDiff``) and only the parts it touches are rebuilt and restarted:
///
/// - sinks changed: the delivery restarts with the new sinks; each sink that stays resumes from its persisted cursor;
/// - watches changed: the engine restarts in-process; its push connections stay open when the push jobs are the same
///   (chain and providers) and follow the new addresses through the shared address book, else they start again;
/// - providers changed: the providers and their scheduler are rebuilt, and the engine with its push jobs;
/// - `storage` changed: kept as it is until the next restart (the store is open), and the log says so.
///
/// The store, the event log and the cursors persist across all of it, so nothing is lost or announced twice.
final class RuntimeSupervisor: Service, Sendable {
    private enum Request: Sendable {
        case reload
        /// A part ended: its name, why, and the exit code (2 for a ``ChainMismatch``, a config error).
        case failed(String, String, Int32)
    }

    /// What runs now.
    private struct Running: Sendable {
        var config: WatcherConfig
        var providers: RuntimeFactory.Providers
        var scheduler: Component?
        var delivery: Component?
        var push: Component?
        var engine: Component?
        var shared: EngineShared
    }

    let factory: RuntimeFactory
    /// Loads and checks the config file again; `nil` when there is none (`watcher demo`).
    let load: (@Sendable () throws(ConfigError) -> WatcherConfig)?
    let live: LiveState
    let record: ReloadRecord
    let hangups: UnixSignalsSequence?
    let logger: Logger
    /// Tells systemd a reload's start (`RELOADING=1`) and end (`READY=1`).
    let notifier: ServiceNotifier
    private let running: Mutex<Running>
    private let initial: RuntimeFactory.Delivery
    private let initialEngine: Engine
    private let initialPush: Engine?
    private let requests: AsyncStream<Request>
    private let requestSink: AsyncStream<Request>.Continuation

    init(
        runtime: WatcherRuntime,
        config: WatcherConfig,
        live: LiveState,
        record: ReloadRecord,
        hangups: UnixSignalsSequence?,
        load: (@Sendable () throws(ConfigError) -> WatcherConfig)?,
        logger: Logger,
        notifier: ServiceNotifier = ServiceNotifier(environment: [:])
    ) {
        factory = runtime.factory
        self.load = load
        self.live = live
        self.record = record
        self.hangups = hangups
        self.logger = logger
        self.notifier = notifier
        initial = runtime.delivery
        initialEngine = runtime.engine
        initialPush = runtime.pushEngine
        running = Mutex(Running(config: config, providers: runtime.providers, shared: runtime.engine.shared))
        (requests, requestSink) = AsyncStream<Request>.makeStream()
    }

    /// Asks for a reload (what SIGHUP does).
    func requestReload() { requestSink.yield(.reload) }

    func run() async throws {
        let providers = running.withLock { $0.providers }
        start(scheduler: providers.scheduler, delivery: initial.service, push: initialPush, engine: initialEngine)
        let listener = Task { [hangups, requestSink] in
            guard let hangups else { return }
            for await _ in hangups { requestSink.yield(.reload) }
        }
        let failure: CommandFailure? = await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                for await request in requests {
                    switch request {
                    case .reload: await reload()
                    case .failed(let name, let error, let code):
                        return CommandFailure(exitCode: code, message: code == 2 ? error : "\(name) failed: \(error)")
                    }
                }
                return nil
            } onGracefulShutdown: { [requestSink] in
                requestSink.finish()
            }
        } onCancel: {
            for component in self.components { component?.cancel() }
        }
        listener.cancel()
        // Dependencies last: the engine stops first, then delivery, then the scheduler.
        for component in components { await component?.stop() }
        if let failure { throw failure }
    }

    /// The running parts, dependents first: engine, push, delivery, scheduler.
    private var components: [Component?] { running.withLock { [$0.engine, $0.push, $0.delivery, $0.scheduler] } }

    /// Starts whichever parts are given, scheduler first.
    private func start(
        scheduler: (any Service)? = nil,
        delivery: (any Service)? = nil,
        push: (any Service)? = nil,
        engine: (any Service)? = nil
    ) {
        let sink = requestSink
        let report: @Sendable (String, any Error) -> Void = { name, error in
            sink.yield(.failed(name, "\(error)", error is ChainMismatch ? 2 : 1))
        }
        let logger = self.logger
        let made = (
            scheduler.map { Component("scheduler", service: $0, logger: logger, onFailure: report) },
            delivery.map { Component("delivery", service: $0, logger: logger, onFailure: report) },
            push.map { Component("push connections", service: $0, logger: logger, onFailure: report) },
            engine.map { Component("engine", service: $0, logger: logger, onFailure: report) }
        )
        running.withLock { running in
            if let scheduler = made.0 { running.scheduler = scheduler }
            if let delivery = made.1 { running.delivery = delivery }
            if let push = made.2 { running.push = push }
            if let engine = made.3 { running.engine = engine }
        }
    }

    /// Loads, checks and applies the config file once.
    func reload() async {
        guard let load else {
            logger.notice("SIGHUP: nothing to reload (this daemon has no config file)")
            return
        }
        logger.notice("SIGHUP: reloading the configuration")
        notifier.reloading()
        defer { notifier.reloaded() }
        let loaded: WatcherConfig
        do {
            loaded = try load()
        } catch {
            refuse(error.errors.map(\.description), why: "the new configuration is invalid")
            return
        }
        await apply(loaded)
    }

    /// Rebuilds and restarts what `loaded` changes; on a failure to build, nothing is changed.
    private func apply(_ loaded: WatcherConfig) async {
        let current = running.withLock { $0 }
        var next = loaded
        let diff = ConfigDiff(old: current.config.document, new: loaded.document)
        if diff.storage {
            logger.warning("config reload: the storage section changed; it takes effect at the next restart")
            next.storage = current.config.storage
            // The storage in force is still the old one: the next reload compares against it.
            next.document = next.document.replacing("storage", with: current.config.document["storage"])
        }
        for warning in next.warnings { logger.warning("\(warning)") }
        let rebuildProviders = !diff.providers.isEmpty
        let rebuildEngine = rebuildProviders || !diff.watches.isEmpty
        let rebuildDelivery = !diff.sinks.isEmpty
        let providers: RuntimeFactory.Providers
        let delivery: RuntimeFactory.Delivery?
        do {
            providers = rebuildProviders ? try factory.providers(next) : current.providers
            delivery = rebuildDelivery ? try factory.delivery(next) : nil
        } catch {
            refuse(["\(error)"], why: "a part of the new configuration could not be built")
            return
        }
        // The push connections stay when their jobs are the same and the providers too.
        let plan = JobPlan(config: next, settings: factory.engineSettings.plan)
        let keepPush = rebuildEngine && !rebuildProviders && current.shared.fits(next, plan: plan)
        let rebuildPush = rebuildEngine && !keepPush && (current.push != nil || !EngineShared.pushJobs(plan).isEmpty)
        // Stop what is replaced, dependents first, then start the replacements, dependencies first.
        if rebuildEngine { await current.engine?.stop() }
        if rebuildPush {
            await current.push?.stop()
            running.withLock { $0.push = nil }
        }
        if rebuildDelivery { await current.delivery?.stop() }
        if rebuildProviders {
            await current.scheduler?.stop()
            factory.board.reset(providers: next.providers.map(\.id))
        }
        var engines: (push: Engine?, main: Engine)?
        if keepPush {
            current.shared.update(watches: next.watches)
            let main = factory.engine(next, providers, selection: .allButPush, shared: current.shared)
            engines = (nil, main)
        } else if rebuildEngine {
            engines = factory.engines(next, providers)
        }
        running.withLock { running in
            running.config = next
            running.providers = providers
            if let shared = engines?.main.shared { running.shared = shared }
        }
        start(
            scheduler: rebuildProviders ? providers.scheduler : nil,
            delivery: delivery?.service,
            push: engines?.push,
            engine: engines?.main
        )
        live.update(
            ProviderSession(
                config: next,
                chainProviders: providers.chain,
                priceProviders: providers.price,
                scheduler: providers.scheduler
            )
        )
        let restarted = [
            rebuildProviders ? "providers" : nil, rebuildEngine ? "engine" : nil, rebuildPush ? "push" : nil,
            rebuildDelivery ? "delivery" : nil,
        ].compactMap { $0 }
        logger.notice(
            "configuration reloaded",
            metadata: [
                "changes": "\(diff.summary)",
                "restarted": "\(restarted.isEmpty ? "nothing" : restarted.joined(separator: ", "))",
            ]
        )
        record.record(.init(result: "ok", time: .now, changes: diff.summary, problems: []))
        factory.metrics.configReload("ok")
    }

    /// Logs every problem and keeps the running configuration.
    private func refuse(_ problems: [String], why: String) {
        for problem in problems { logger.error("config reload refused: \(problem)") }
        logger.error("config reload refused: \(why); still running the previous configuration")
        record.record(.init(result: "failed", time: .now, changes: why, problems: problems))
        factory.metrics.configReload("failed")
    }
}

extension JSONValue {
    /// This object with the member `key` set to `value` (removed when `nil`); anything else unchanged.
    func replacing(_ key: String, with value: JSONValue?) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members.removeAll { $0.key == key }
        if let value { members.append(.init(key, value)) }
        return .object(members)
    }
}

extension RuntimeSupervisor: CustomStringConvertible {
    /// What service-lifecycle logs of the service (not the config, which can be large).
    var description: String { "RuntimeSupervisor" }
}
