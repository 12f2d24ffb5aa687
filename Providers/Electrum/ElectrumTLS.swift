import Crypto
import Foundation
import NIOCore
import NIOSSL
import WatcherBitcoin

/// How an `ssl://` connection checks the server's certificate (reference nodes.md §2.1): `ca` against the system's
/// trust store and the host name, `pin` against the SHA-256 of the leaf certificate (self-hosted servers use
/// self-signed certificates), `insecure` not at all.
public enum ElectrumTLS: Sendable, Hashable {
    case ca
    case pin([UInt8])
    case insecure

    /// Parses a pin: `sha256/` followed by the digest in base64 (as HPKP and curl write pins) or in hex.
    public static func pin(_ text: String) -> [UInt8]? {
        guard text.lowercased().hasPrefix("sha256/") else { return nil }
        let digest = String(text.dropFirst("sha256/".count))
        if let bytes = Hex.decode(digest), bytes.count == 32 { return bytes }
        if let data = Data(base64Encoded: digest), data.count == 32 { return Array(data) }
        return nil
    }

    /// `sha256/<base64>` of a certificate's DER bytes: what `pin` takes.
    public static func pinText(der: [UInt8]) -> String {
        "sha256/" + Data(SHA256.hash(data: der)).base64EncodedString()
    }

    /// The client handler to put first in the pipeline.
    func handler(host: String) throws -> NIOSSLClientHandler {
        var configuration = TLSConfiguration.makeClientConfiguration()
        let hostname = Self.isIPAddress(host) ? nil : host
        switch self {
        case .ca:
            return try NIOSSLClientHandler(
                context: NIOSSLContext(configuration: configuration),
                serverHostname: hostname
            )
        case .insecure:
            configuration.certificateVerification = .none
            return try NIOSSLClientHandler(
                context: NIOSSLContext(configuration: configuration),
                serverHostname: hostname
            )
        case .pin(let expected):
            // The callback replaces the chain check, and runs only while verification is on.
            configuration.certificateVerification = .noHostnameVerification
            return try NIOSSLClientHandler(
                context: NIOSSLContext(configuration: configuration),
                serverHostname: hostname,
                customVerificationCallback: { certificates, promise in
                    let leaf = certificates.first.flatMap { try? $0.toDERBytes() }
                    let matches = leaf.map { Array(SHA256.hash(data: $0)) == expected } ?? false
                    promise.succeed(matches ? .certificateVerified : .failed)
                }
            )
        }
    }

    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}
