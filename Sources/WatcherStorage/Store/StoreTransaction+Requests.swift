import Foundation
import WatcherCore

/// Payment requests (`docs/requests.md`): the `requests` table (`<chain>/<id>` → the request) and the
/// `requestorders` index (`<chain>/<wallet>/<order id>` → the id), so an order id is given one request only.
extension StoreTransaction {
    /// The request `id` of `chain`.
    public func request(chain: String, id: String) throws -> PaymentRequest? {
        guard let table = tables.requests else { return nil }
        return try value(PaymentRequest.self, table, Keys.text(chain, id))
    }

    /// Every request of `chain`, in id order.
    public func requests(chain: String) throws -> [PaymentRequest] {
        guard let table = tables.requests else { return [] }
        return try values(PaymentRequest.self, table, prefix: Keys.chainPrefix(chain), limit: .max)
    }

    /// The request created for `orderId` of `wallet`, if any.
    public func request(chain: String, wallet: String, orderId: String) throws -> PaymentRequest? {
        guard let table = tables.requestOrders,
            let id = try txn.get(table, Keys.text(chain, wallet, orderId)).map({ String(decoding: $0, as: UTF8.self) })
        else { return nil }
        return try request(chain: chain, id: id)
    }
}

extension StoreTransaction where Txn == WriteTransaction {
    /// Stores a request (and its order id's entry).
    public func putRequest(_ request: PaymentRequest) throws {
        guard let table = tables.requests, let orders = tables.requestOrders else {
            throw StorageError.writerStopped
        }
        try put(table, Keys.text(request.chain, request.id), request)
        if let orderId = request.orderId {
            try txn.put(orders, Keys.text(request.chain, request.wallet, orderId), Array(request.id.utf8))
        }
    }
}
