#!/usr/bin/env python3
"""Checks `watcher wallets derive` against an implementation written from the BIPs, sharing no code with it.

Usage: /usr/bin/python3 scripts/derive-check.py [--watcher PATH] [--keys N] [--count C] [--seed S] [--jobs J]

From a seed it makes N random account keys per wallet type (a random private key; the account xpub at depth 3 with
a random parent fingerprint and hardened child number, serialised with the SLIP-132 version bytes of its type and
network) for: pkh, sh(wpkh), wpkh, tr, wsh(sortedmulti(2,K1,K2,K3)), sh(wsh(sortedmulti(2,K1,K2,K3))), and the bare
xpub, ypub and zpub (tpub/upub/vpub on the test networks). Keys cycle through mainnet, testnet and regtest, with and
without a key origin, a checksum and a --from window. For each key it runs `watcher wallets derive ... --json` on
the receive and the change branch and compares the normalised descriptor (checksum included), and for every
address its branch, index, path, address and scriptPubKey with its own:

  BIP32 CKDpub (HMAC-SHA512, point addition with python-ecdsa's SECP256k1), BIP341 key-path tweak (BIP86),
  P2PKH / P2SH-P2WPKH / P2WPKH / P2TR / P2WSH / P2SH-P2WSH scripts, BIP67 key sorting, Base58Check,
  Bech32 / Bech32m (BIP173 / BIP350), the BIP380 checksum, HASH160 with hashlib's RIPEMD-160 when OpenSSL offers
  it, else a small pure-Python RIPEMD-160.

Before that, the implementation checks itself against official vectors (RIPEMD-160, BIP84, BIP86, BIP49, BIP380).
Prints a line per mismatch and `N passed, M failed` last (N, M: addresses); exits 1 on any mismatch.
Run it with Debian's /usr/bin/python3, which sees python3-ecdsa (`make test-deps`).
"""
import argparse
import concurrent.futures
import hashlib
import hmac
import json
import os
import random
import struct
import subprocess
import sys

from ecdsa import SECP256k1
from ecdsa.ellipticcurve import INFINITY, PointJacobi

G = SECP256k1.generator
N = SECP256k1.order
P = SECP256k1.curve.p()
HARDENED = 0x80000000

# ---------------------------------------------------------------------------------------------------- hashes


def _rol(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF


# RIPEMD-160 (Dobbertin, Bosselaers, Preneel): message word order, rotations and constants of both lines.
_RL = [list(range(16)),
       [7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8],
       [3, 10, 14, 4, 9, 15, 8, 1, 2, 7, 0, 6, 13, 11, 5, 12],
       [1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2],
       [4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13]]
_RR = [[5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12],
       [6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2],
       [15, 5, 1, 3, 7, 14, 6, 9, 11, 8, 12, 2, 10, 0, 4, 13],
       [8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14],
       [12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11]]
_SL = [[11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8],
       [7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12],
       [11, 13, 6, 7, 14, 9, 13, 15, 14, 8, 13, 6, 5, 12, 7, 5],
       [11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12],
       [9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8, 5, 6]]
_SR = [[8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6],
       [9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11],
       [9, 7, 15, 11, 8, 6, 6, 14, 12, 13, 5, 14, 13, 13, 7, 5],
       [15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8],
       [8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11, 11]]
_KL = [0x00000000, 0x5A827999, 0x6ED9EBA1, 0x8F1BBCDC, 0xA953FD4E]
_KR = [0x50A28BE6, 0x5C4DD124, 0x6D703EF3, 0x7A6D76E9, 0x00000000]


def _f(j, x, y, z):
    if j == 0:
        return x ^ y ^ z
    if j == 1:
        return (x & y) | (~x & z)
    if j == 2:
        return (x | ~y) ^ z
    if j == 3:
        return (x & z) | (y & ~z)
    return x ^ (y | ~z)


def ripemd160_pure(data):
    h = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
    message = data + b"\x80" + b"\x00" * ((55 - len(data)) % 64) + struct.pack("<Q", 8 * len(data))
    for offset in range(0, len(message), 64):
        x = struct.unpack("<16I", message[offset:offset + 64])
        al, bl, cl, dl, el = h
        ar, br, cr, dr, er = h
        for rnd in range(5):
            for i in range(16):
                t = (al + (_f(rnd, bl, cl, dl) & 0xFFFFFFFF) + x[_RL[rnd][i]] + _KL[rnd]) & 0xFFFFFFFF
                t = (_rol(t, _SL[rnd][i]) + el) & 0xFFFFFFFF
                al, el, dl, cl, bl = el, dl, _rol(cl, 10), bl, t
                t = (ar + (_f(4 - rnd, br, cr, dr) & 0xFFFFFFFF) + x[_RR[rnd][i]] + _KR[rnd]) & 0xFFFFFFFF
                t = (_rol(t, _SR[rnd][i]) + er) & 0xFFFFFFFF
                ar, er, dr, cr, br = er, dr, _rol(cr, 10), br, t
        t = (h[1] + cl + dr) & 0xFFFFFFFF
        h[1] = (h[2] + dl + er) & 0xFFFFFFFF
        h[2] = (h[3] + el + ar) & 0xFFFFFFFF
        h[3] = (h[4] + al + br) & 0xFFFFFFFF
        h[4] = (h[0] + bl + cr) & 0xFFFFFFFF
        h[0] = t
    return struct.pack("<5I", *h)


def _ripemd160_openssl(data):
    return hashlib.new("ripemd160", data).digest()


try:
    _ripemd160_openssl(b"")
    ripemd160, RIPEMD_SOURCE = _ripemd160_openssl, "hashlib (OpenSSL)"
except ValueError:
    ripemd160, RIPEMD_SOURCE = ripemd160_pure, "pure Python"


def sha256(data):
    return hashlib.sha256(data).digest()


def hash160(data):
    return ripemd160(sha256(data))


def tagged_hash(tag, data):
    t = sha256(tag.encode())
    return sha256(t + t + data)


# ---------------------------------------------------------------------------------------------------- encodings

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def base58check(payload):
    data = payload + sha256(sha256(payload))[:4]
    number = int.from_bytes(data, "big")
    text = ""
    while number:
        number, digit = divmod(number, 58)
        text = B58[digit] + text
    return "1" * (len(data) - len(data.lstrip(b"\x00"))) + text


def base58check_decode(text):
    number = 0
    for character in text:
        number = number * 58 + B58.index(character)
    body = number.to_bytes((number.bit_length() + 7) // 8, "big")
    data = b"\x00" * (len(text) - len(text.lstrip("1"))) + body
    assert sha256(sha256(data[:-4]))[:4] == data[-4:], "bad Base58Check checksum"
    return data[:-4]


BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _bech32_polymod(values):
    generators = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    check = 1
    for value in values:
        top = check >> 25
        check = (check & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            check ^= generators[i] if (top >> i) & 1 else 0
    return check


def segwit_address(hrp, version, program):
    data = [version]
    accumulator, bits = 0, 0
    for byte in program:
        accumulator = (accumulator << 8) | byte
        bits += 8
        while bits >= 5:
            bits -= 5
            data.append((accumulator >> bits) & 31)
    if bits:
        data.append((accumulator << (5 - bits)) & 31)
    constant = 1 if version == 0 else 0x2BC830A3  # BIP173 bech32, BIP350 bech32m
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    value = _bech32_polymod(expanded + data + [0] * 6) ^ constant
    checksum = [(value >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32_CHARSET[d] for d in data + checksum)


DESCRIPTOR_CHARSET = "0123456789()[],'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#\"\\ "


def descriptor_checksum(text):
    generators = [0xF5DEE51989, 0xA9FDCA3312, 0x1BAB10E32D, 0x3706B1677A, 0x644D626FFD]

    def polymod(check, value):
        top = check >> 35
        check = (check & 0x7FFFFFFFF) << 5 ^ value
        for i in range(5):
            check ^= generators[i] if (top >> i) & 1 else 0
        return check

    check, groups, count = 1, 0, 0
    for character in text:
        position = DESCRIPTOR_CHARSET.index(character)
        check = polymod(check, position & 31)
        groups = groups * 3 + (position >> 5)
        count += 1
        if count == 3:
            check = polymod(check, groups)
            groups, count = 0, 0
    if count:
        check = polymod(check, groups)
    for _ in range(8):
        check = polymod(check, 0)
    check ^= 1
    return "".join(BECH32_CHARSET[(check >> (5 * (7 - i))) & 31] for i in range(8))


# ---------------------------------------------------------------------------------------------------- keys

VERSIONS = {  # SLIP-132 public version bytes
    "xpub": 0x0488B21E, "ypub": 0x049D7CB2, "zpub": 0x04B24746,
    "tpub": 0x043587CF, "upub": 0x044A5262, "vpub": 0x045F1CF6,
}


def ser_p(point):
    return bytes([2 + (point.y() & 1)]) + point.x().to_bytes(32, "big")


def lift(compressed):
    x = int.from_bytes(compressed[1:], "big")
    y = pow((pow(x, 3, P) + 7) % P, (P + 1) // 4, P)
    if y & 1 != compressed[0] & 1:
        y = P - y
    assert (y * y - x ** 3 - 7) % P == 0, "not on the curve"
    return PointJacobi(SECP256k1.curve, x, y, 1, N)


class ExtendedKey:
    """A BIP32 extended public key: the point, chain code, depth, parent fingerprint and child number."""

    def __init__(self, point, chain_code, depth=0, parent=0, child=0):
        self.point, self.chain_code, self.depth, self.parent, self.child = point, chain_code, depth, parent, child

    def serialize(self, version):
        body = struct.pack(">IBII", VERSIONS[version], self.depth, self.parent, self.child)
        return base58check(body + self.chain_code + ser_p(self.point))

    @staticmethod
    def parse(text):
        data = base58check_decode(text)
        assert len(data) == 78
        _, depth, parent, child = struct.unpack(">IBII", data[:13])
        return ExtendedKey(lift(data[45:]), data[13:45], depth, parent, child)

    def ckd_pub(self, index):
        """BIP32 CKDpub: I = HMAC-SHA512(c, ser_P(K) || ser_32(i)); K_i = point(I_L) + K; c_i = I_R."""
        assert index < HARDENED
        digest = hmac.new(self.chain_code, ser_p(self.point) + struct.pack(">I", index), hashlib.sha512).digest()
        tweak = int.from_bytes(digest[:32], "big")
        child = G * tweak + self.point
        if tweak >= N or child == INFINITY:
            raise ValueError(f"BIP32: child {index} is invalid")
        fingerprint = int.from_bytes(hash160(ser_p(self.point))[:4], "big")
        return ExtendedKey(child, digest[32:], self.depth + 1, fingerprint, index)


def ckd_priv(secret, chain_code, index):
    """BIP32 CKDpriv for non-hardened children, to check CKDpub against: k_i = I_L + k (mod n)."""
    digest = hmac.new(chain_code, ser_p(G * secret) + struct.pack(">I", index), hashlib.sha512).digest()
    return (int.from_bytes(digest[:32], "big") + secret) % N, digest[32:]


def taproot_output_key(point):
    """BIP341/BIP86 key path only: Q = lift_x(x(P)) + int(TapTweak(x(P)))·G; returns x(Q)."""
    internal = point if point.y() % 2 == 0 else -point
    x_only = internal.x().to_bytes(32, "big")
    tweak = int.from_bytes(tagged_hash("TapTweak", x_only), "big")
    assert tweak < N
    return (internal + G * tweak).x().to_bytes(32, "big")


# ---------------------------------------------------------------------------------------------------- scripts

NETWORKS = {  # hrp, P2PKH version, P2SH version, prefix family
    "main": ("bc", 0x00, 0x05, "main"),
    "test": ("tb", 0x6F, 0xC4, "test"),
    "regtest": ("bcrt", 0x6F, 0xC4, "test"),
}


def multisig_witness_script(points):
    keys = sorted(ser_p(point) for point in points)  # BIP67 / sortedmulti: lexicographic compressed keys
    return bytes([0x52]) + b"".join(b"\x21" + key for key in keys) + bytes([0x50 + len(keys), 0xAE])


def script_and_address(kind, points, network):
    """The scriptPubKey and address of one index: `points` holds the derived key (or the multisig keys)."""
    hrp, p2pkh_version, p2sh_version, _ = NETWORKS[network]
    if kind in ("pkh", "xpub"):
        key_hash = hash160(ser_p(points[0]))
        return b"\x76\xa9\x14" + key_hash + b"\x88\xac", base58check(bytes([p2pkh_version]) + key_hash)
    if kind in ("sh-wpkh", "ypub"):
        redeem = b"\x00\x14" + hash160(ser_p(points[0]))
        script_hash = hash160(redeem)
        return b"\xa9\x14" + script_hash + b"\x87", base58check(bytes([p2sh_version]) + script_hash)
    if kind in ("wpkh", "zpub"):
        program = hash160(ser_p(points[0]))
        return b"\x00\x14" + program, segwit_address(hrp, 0, program)
    if kind == "tr":
        program = taproot_output_key(points[0])
        return b"\x51\x20" + program, segwit_address(hrp, 1, program)
    program = sha256(multisig_witness_script(points))
    if kind == "wsh-multi":
        return b"\x00\x20" + program, segwit_address(hrp, 0, program)
    assert kind == "sh-wsh-multi"
    script_hash = hash160(b"\x00\x20" + program)
    return b"\xa9\x14" + script_hash + b"\x87", base58check(bytes([p2sh_version]) + script_hash)


# ---------------------------------------------------------------------------------------------------- wallets

KINDS = ["pkh", "sh-wpkh", "wpkh", "tr", "wsh-multi", "sh-wsh-multi", "xpub", "ypub", "zpub"]
PURPOSE = {"pkh": 44, "sh-wpkh": 49, "wpkh": 84, "tr": 86, "wsh-multi": 48, "sh-wsh-multi": 48}
BARE_PREFIX = {"xpub": ("xpub", "tpub"), "ypub": ("ypub", "upub"), "zpub": ("zpub", "vpub")}
WRAP = {
    "pkh": ("pkh(", ")"), "sh-wpkh": ("sh(wpkh(", "))"), "wpkh": ("wpkh(", ")"), "tr": ("tr(", ")"),
    "wsh-multi": ("wsh(sortedmulti(2,", "))"), "sh-wsh-multi": ("sh(wsh(sortedmulti(2,", ")))"),
    "xpub": ("pkh(", ")"), "ypub": ("sh(wpkh(", "))"), "zpub": ("wpkh(", ")"),
}


class Wallet:
    """One random wallet of a kind: its account keys, the argument to give watcher and what it must print."""

    def __init__(self, kind, number, rng):
        self.kind, self.number = kind, number
        self.network = ["main", "main", "test", "regtest"][number % 4]
        family = NETWORKS[self.network][3]
        coin = 0 if family == "main" else 1
        plain = "xpub" if family == "main" else "tpub"
        self.keys = []  # (ExtendedKey, origin steps or None)
        self.secrets = []
        for _ in range(3 if kind.endswith("multi") else 1):
            secret = rng.randrange(1, N)
            account = ExtendedKey(G * secret, rng.randbytes(32), depth=3, parent=rng.getrandbits(32),
                                  child=HARDENED | rng.getrandbits(31))
            with_origin = kind not in BARE_PREFIX and number % 2 == 0
            origin = None
            if with_origin:
                origin = (rng.getrandbits(32), [HARDENED | PURPOSE[kind], HARDENED | coin, account.child])
            self.keys.append((account, origin))
            self.secrets.append(secret)
        if kind in BARE_PREFIX:
            version = BARE_PREFIX[kind][0 if family == "main" else 1]
            self.argument = self.keys[0][0].serialize(version)
        else:
            marker = "'" if number % 3 == 1 else "h"  # the input may use either; watcher prints h
            given = WRAP[kind][0] + ",".join(self.key_text(key, origin, plain, marker) for key, origin in self.keys)
            given += WRAP[kind][1]
            self.argument = given + ("#" + descriptor_checksum(given) if number % 3 == 0 else "")
        body = WRAP[kind][0] + ",".join(self.key_text(key, origin, plain, "h") for key, origin in self.keys)
        body += WRAP[kind][1]
        self.descriptor = body + "#" + descriptor_checksum(body)

    @staticmethod
    def key_text(key, origin, version, marker):
        text = ""
        if origin:
            steps = "".join(f"/{step & ~HARDENED}{marker}" for step in origin[1])
            text = f"[{origin[0]:08x}{steps}]"
        return text + key.serialize(version) + "/<0;1>/*"

    def expected(self, branch, index, branch_keys):
        points = [branch_key.ckd_pub(index).point for branch_key in branch_keys]
        script, address = script_and_address(self.kind, points, self.network)
        origin = self.keys[0][1]
        steps = "/".join(f"{step & ~HARDENED}'" for step in origin[1]) if origin else None
        path = (f"m/{steps}/" if origin else "") + f"{branch}/{index}"
        return {"branch": ["receive", "change"][branch], "index": index, "path": path, "address": address,
                "scriptPubKey": script.hex()}


def check_wallet(watcher, wallet, count, rng_from):
    """Runs watcher on both branches; returns (addresses passed, addresses failed, messages)."""
    passed, failed, messages = 0, 0, []
    label = f"{wallet.kind} #{wallet.number} ({wallet.network})"
    for branch, name in enumerate(["receive", "change"]):
        start = rng_from[branch]
        command = [watcher, "wallets", "derive", wallet.argument, "--branch", name, "--from", str(start),
                   "--count", str(count), "--network", wallet.network, "--json"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            messages.append(f"{label} {name}: exit {result.returncode}: {result.stderr.strip()}")
            failed += count
            continue
        answer = json.loads(result.stdout)
        if answer.get("descriptor") != wallet.descriptor:
            messages.append(f"{label}: descriptor {answer.get('descriptor')} != {wallet.descriptor}")
        if list(answer) != ["descriptor", "addresses"] or len(answer["addresses"]) != count:
            messages.append(f"{label} {name}: unexpected JSON shape or length")
        branch_keys = [key.ckd_pub(branch) for key, _ in wallet.keys]
        for offset in range(count):
            want = wallet.expected(branch, start + offset, branch_keys)
            got = answer["addresses"][offset] if offset < len(answer["addresses"]) else {}
            wrong = [field for field in want if got.get(field) != want[field]]
            if list(got) != list(want):
                wrong.append("key order")
            if wrong or answer.get("descriptor") != wallet.descriptor:
                failed += 1
                for field in wrong:
                    messages.append(f"{label} {name} {start + offset}: {field} {got.get(field)!r} != {want.get(field)!r}")
            else:
                passed += 1
    return passed, failed, messages


# ---------------------------------------------------------------------------------------------------- self-test

def self_test():
    """The implementation above against official vectors, so that a wrong oracle fails here, not in the comparison."""
    for data, digest in [(b"", "9c1185a5c5e9fc54612808977ee8f548b2258d31"),
                         (b"abc", "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"),
                         (b"a" * 1000, "aa69deee9a8922e92f8105e007f76110f381e9cf")]:
        assert ripemd160_pure(data).hex() == digest, "pure RIPEMD-160"
        assert ripemd160(data).hex() == digest, "RIPEMD-160"
    # BIP84: account zpub m/84'/0'/0' -> 0/0, 0/1, 1/0.
    zpub = ExtendedKey.parse("zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868Rv"
                             "UUkgDKf31mGDtKsAYz2oz2AGutZYs")
    for (branch, index), address in [((0, 0), "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"),
                                     ((0, 1), "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g"),
                                     ((1, 0), "bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el")]:
        point = zpub.ckd_pub(branch).ckd_pub(index).point
        assert script_and_address("wpkh", [point], "main")[1] == address, "BIP84"
    # BIP86: account xpub m/86'/0'/0' -> 0/0, 1/0.
    xpub = ExtendedKey.parse("xpub6BgBgsespWvERF3LHQu6CnqdvfEvtMcQjYrcRzx53QJjSxarj2afYWcLteoGVky7D3UKDP9QyrLprQ3"
                             "VCECoY49yfdDEHGCtMMj92pReUsQ")
    for (branch, index), address in [
            ((0, 0), "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr"),
            ((1, 0), "bc1p3qkhfews2uk44qtvauqyr2ttdsw7svhkl9nkm9s9c3x4ax5h60wqwruhk7")]:
        point = xpub.ckd_pub(branch).ckd_pub(index).point
        assert script_and_address("tr", [point], "main")[1] == address, "BIP86"
    # BIP49 (testnet): account upub m/49'/1'/0' -> 0/0.
    upub = ExtendedKey.parse("upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6moKegAEWtGNF8Dehrn"
                             "Htv21XXEMYRUocHqguyjknFHYfgY")
    point = upub.ckd_pub(0).ckd_pub(0).point
    assert script_and_address("sh-wpkh", [point], "test")[1] == "2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2", "BIP49"
    # BIP380: the smallest checksum example.
    assert descriptor_checksum("raw(deadbeef)") == "89f8spxm", "BIP380"
    # Re-serialising a parsed key gives it back.
    assert upub.serialize("upub").startswith("upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--watcher", default=os.path.join(root, ".build", "debug", "watcher"))
    parser.add_argument("--keys", type=int, default=20, help="random wallets per type (default 20)")
    parser.add_argument("--count", type=int, default=5, help="addresses per branch (default 5)")
    parser.add_argument("--seed", type=int, default=2026, help="the random seed (default 2026)")
    parser.add_argument("--jobs", type=int, default=4, help="watcher processes at a time (default 4)")
    options = parser.parse_args()
    self_test()
    rng = random.Random(options.seed)
    work = []
    for kind in KINDS:
        for number in range(options.keys):
            wallet = Wallet(kind, number, rng)
            # Even wallets from 0; odd ones from a random window up to the last index watcher accepts.
            last = 2 ** 31 - 1 - options.count
            starts = [0, 0] if number % 2 == 0 else [rng.randrange(0, last + 1), rng.randrange(0, last + 1)]
            if number == 1:
                starts = [last, last]
            # CKDpub agrees with CKDpriv on the first receive key (the oracle checks itself on random keys too).
            account, _ = wallet.keys[0]
            secret, code = ckd_priv(wallet.secrets[0], account.chain_code, 0)
            secret, _ = ckd_priv(secret, code, 0)
            assert G * secret == account.ckd_pub(0).ckd_pub(0).point, "CKDpub != CKDpriv"
            work.append((wallet, starts))
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        results = pool.map(lambda item: check_wallet(options.watcher, item[0], options.count, item[1]), work)
        for wallet_passed, wallet_failed, messages in results:
            passed += wallet_passed
            failed += wallet_failed
            for message in messages:
                print("MISMATCH " + message)
    print(f"derive-check: {len(KINDS)} types x {options.keys} keys x 2 branches x {options.count} addresses, "
          f"seed {options.seed}, RIPEMD-160 from {RIPEMD_SOURCE}; compared descriptor, branch, index, path, "
          "address and scriptPubKey")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
