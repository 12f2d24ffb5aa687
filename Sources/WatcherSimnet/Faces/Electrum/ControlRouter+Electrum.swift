import Foundation
import WatcherCore
import WatcherJSON

/// `/control/electrum`: the Electrum face's personality and switches.
extension ControlRouter {
    private struct ElectrumRequest: Decodable {
        var personality: String?
        var maxSubscriptions: Int?
        var duplicateNotifications: Bool?
        var dropNotifications: Int?
        var dropConnections: Bool?
        var indexLag: Int?
        var indexUnavailable: Bool?
        /// `0` or less: no limit.
        var maxHistory: Int?
        var missingMethods: [String]?
    }

    /// `{"personality": "fulcrum", "maxSubscriptions": 2, "duplicateNotifications": true, "dropNotifications": 1,
    /// "dropConnections": true, "indexLag": 3, "indexUnavailable": true, "maxHistory": 10,
    /// "missingMethods": ["blockchain.scripthash.get_balance"]}`, each optional;
    /// `dropConnections` closes every open Electrum connection, `maxHistory` 0 lifts the limit.
    func electrum(_ body: [UInt8]) throws -> SimReply {
        let request = try decode(ElectrumRequest.self, body)
        var settings = world.electrum.currentSettings
        if let name = request.personality {
            guard let personality = ElectrumSettings.Personality(rawValue: name) else {
                let known = ElectrumSettings.Personality.allCases.map(\.rawValue).joined(separator: ", ")
                throw BadRequest(message: "unknown personality \(name) (\(known))")
            }
            settings.personality = personality
        }
        if let cap = request.maxSubscriptions {
            guard cap >= 0 else { throw BadRequest(message: "maxSubscriptions must be 0 or more") }
            settings.maxSubscriptions = cap
        }
        if let duplicate = request.duplicateNotifications { settings.duplicateNotifications = duplicate }
        if let drop = request.dropNotifications {
            guard drop >= 0 else { throw BadRequest(message: "dropNotifications must be 0 or more") }
            settings.dropNotifications = drop
        }
        if let lag = request.indexLag {
            guard lag >= 0 else { throw BadRequest(message: "indexLag must be 0 or more") }
            settings.indexLag = lag
        }
        if let missing = request.missingMethods { settings.missingMethods = Set(missing) }
        if let unavailable = request.indexUnavailable { settings.indexUnavailable = unavailable }
        if let limit = request.maxHistory { settings.maxHistory = limit > 0 ? limit : nil }
        world.electrum.set(settings)
        if request.dropConnections == true { world.electrum.dropConnections() }
        return electrum()
    }

    func electrum() -> SimReply {
        let settings = world.electrum.currentSettings
        return .json(
            .object([
                .init("port", .integer(world.electrum.port)),
                .init("connections", .integer(world.electrum.connectionCount)),
                .init("personality", .string(settings.personality.rawValue)),
                .init("maxSubscriptions", .integer(settings.maxSubscriptions)),
                .init("duplicateNotifications", .bool(settings.duplicateNotifications)),
                .init("dropNotifications", .integer(settings.dropNotifications)),
                .init("indexLag", .integer(settings.indexLag)),
                .init("indexUnavailable", .bool(settings.indexUnavailable)),
                .init("maxHistory", .integer(settings.maxHistory)),
                .init("missingMethods", .array(settings.missingMethods.sorted().map(JSONValue.string))),
            ])
        )
    }
}
