#!/usr/bin/env python3
"""BDK (PyPI's bdkpython) as an oracle of the regtest simnet: it draws wallets and syncs them through an Electrum
server (ElectrumX, or the simnet's own Electrum face). Runs on the oracles' venv (`make oracle-deps`).

    bdk-wallet.py new wpkh|tr N
        A wallet with a random key: {"external": "<descriptor>", "internal": "<descriptor>",
        "receive": [N addresses], "change": [N addresses]} (public descriptors with a tpub, BIP84 or BIP86 paths).
    bdk-wallet.py sync URL EXTERNAL INTERNAL
        A full scan (stop gap 20) through the Electrum server at URL (tcp://host:port), then one JSON line:
        {"confirmed": sat, "unconfirmed": sat, "immature": sat, "txs": n, "tip": height}
        where unconfirmed is BDK's trusted plus untrusted pending.
"""
import json
import sys

import bdkpython as bdk

NETWORK = bdk.Network.REGTEST
KIND = bdk.NetworkKind.TEST


def new(kind, count):
    secret = bdk.DescriptorSecretKey(KIND, bdk.Mnemonic(bdk.WordCount.WORDS12), None)
    template = {"wpkh": bdk.Descriptor.new_bip84, "tr": bdk.Descriptor.new_bip86}[kind]
    external = template(secret, bdk.KeychainKind.EXTERNAL, KIND)
    internal = template(secret, bdk.KeychainKind.INTERNAL, KIND)
    wallet = bdk.Wallet(external, internal, NETWORK, bdk.Persister.new_in_memory())
    peek = wallet.peek_address
    return {
        "external": str(external),
        "internal": str(internal),
        "receive": [str(peek(bdk.KeychainKind.EXTERNAL, i).address) for i in range(count)],
        "change": [str(peek(bdk.KeychainKind.INTERNAL, i).address) for i in range(count)],
    }


def sync(url, external, internal):
    wallet = bdk.Wallet(
        bdk.Descriptor(external, KIND), bdk.Descriptor(internal, KIND), NETWORK, bdk.Persister.new_in_memory()
    )
    client = bdk.ElectrumClient(url)
    request = wallet.start_full_scan().build()
    wallet.apply_update(client.full_scan(request, 20, 10, False))
    balance = wallet.balance()
    return {
        "confirmed": balance.confirmed.to_sat(),
        "unconfirmed": balance.trusted_pending.to_sat() + balance.untrusted_pending.to_sat(),
        "immature": balance.immature.to_sat(),
        "txs": len(wallet.transactions()),
        "tip": wallet.latest_checkpoint().height,
    }


def main():
    what, *rest = sys.argv[1:]
    if what == "new":
        print(json.dumps(new(rest[0], int(rest[1]))))
    elif what == "sync":
        print(json.dumps(sync(*rest)))
    else:
        raise SystemExit(f"unknown command {what}")


if __name__ == "__main__":
    main()
