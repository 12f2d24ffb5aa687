import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// The self-signed certificate of the Electrum face over TLS, made at start (a P-256 key, valid a month), as a
/// self-hosted electrs or Fulcrum box has one: clients check it by its pin, the SHA-256 of its DER bytes.
struct ElectrumCertificate: Sendable {
    let certificate: NIOSSLCertificate
    let key: NIOSSLPrivateKey
    /// `sha256/<base64>` of the certificate's DER bytes: what an `electrum` provider's `pin` option takes.
    let pin: String

    init(now: Date = Date()) throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("watcher simnet") }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3_600),
            notValidAfter: now.addingTimeInterval(30 * 86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions(),
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        let pem = try certificate.serializeAsPEM()
        self.certificate = try NIOSSLCertificate(bytes: Array(pem.pemString.utf8), format: .pem)
        self.key = try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
        pin = "sha256/" + Data(SHA256.hash(data: pem.derBytes)).base64EncodedString()
    }

    /// The server handler to put first in a connection's pipeline.
    func handler() throws -> NIOSSLServerHandler {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)],
            privateKey: .privateKey(key)
        )
        return NIOSSLServerHandler(context: try NIOSSLContext(configuration: configuration))
    }
}
