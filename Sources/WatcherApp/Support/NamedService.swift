import ServiceLifecycle

extension ServiceGroupConfiguration.ServiceConfiguration {
    /// `service` named by its type alone. A `ServiceGroup` names each service in its log lines (at debug) and its
    /// errors, and a service added without a name is named `"\(service)"`: its whole reflected value, the resolved
    /// config and the providers with it, secrets included. Every service of the daemon is added through here.
    static func named(
        _ service: any Service,
        successTerminationBehavior: ServiceGroupConfiguration.ServiceConfiguration.TerminationBehavior = .cancelGroup
    ) -> Self {
        .init(
            service: service,
            successTerminationBehavior: successTerminationBehavior,
            serviceName: String(describing: type(of: service))
        )
    }
}
