#!/usr/bin/env bash
# `make package-test`: installs dist/watcher_<version>_<arch>.deb in a clean Debian 12 root with no Swift anywhere and
# proves it works there (docs/operations.md, "Installing the Debian package"):
#
#   apt-get install ./watcher_….deb (apt resolves Depends from the archive), watcher --version, watcher check on the
#   shipped config, ldd, `watcher run` on the shipped config as the watcher user (store in /var/lib/watcher), watcher
#   demo --duration 5s, an upgrade over itself that keeps an edited conffile, remove (the store and user stay) and
#   purge (both go).
#
# The root comes from `debootstrap --variant=minbase bookworm` against the archive this machine's apt uses, made once
# and cached in $PACKAGE_TEST_CACHE (default /var/cache/watcher-package-test); each run works on a fresh copy of it.
# Needs root (chroot, mount) and the network to that archive.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${PACKAGE_TEST_CACHE:-/var/cache/watcher-package-test}
arch=$(dpkg --print-architecture)
version=$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)
deb="dist/watcher_${version}_${arch}.deb"
[ -f "$deb" ] || { echo "no $deb: run make package first" >&2; exit 1; }

step() { printf '\n== %s\n' "$*"; }
fail() { echo "package-test FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# The first archive of this machine's apt that serves bookworm (one-line sources.list or deb822 .sources).
mirror=$(
    /usr/bin/python3 - <<'EOF'
import glob, re
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        for line in open(path):
            fields = line.split("#")[0].split()
            if len(fields) >= 3 and fields[0] == "deb" and fields[-2 if fields[1].startswith("[") else 2] == "bookworm":
                print([f for f in fields[1:] if not f.startswith("[") and not f.endswith("]")][0]); raise SystemExit
    except FileNotFoundError:
        pass
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for stanza in re.split(r"\n\s*\n", open(path).read()):
        fields = dict(re.findall(r"^(\w[\w-]*):\s*(.*)$", stanza, re.M))
        if "deb" in fields.get("Types", "").split() and "bookworm" in fields.get("Suites", "").split():
            print(fields["URIs"].split()[0]); raise SystemExit
raise SystemExit("no apt source serves bookworm")
EOF
)

pristine="$CACHE/bookworm-minbase"
if [ ! -f "$pristine/.watcher-complete" ]; then
    step "debootstrap --variant=minbase bookworm from $mirror (cached in $pristine)"
    rm -rf "$pristine"
    mkdir -p "$CACHE"
    started=$(now)
    debootstrap --variant=minbase bookworm "$pristine" "$mirror"
    touch "$pristine/.watcher-complete"
    echo "debootstrap: $(since "$started") s"
fi

root="$CACHE/run"
cleanup() {
    umount "$root/dev/pts" 2>/dev/null || true
    umount "$root/proc" 2>/dev/null || true
    rm -rf "$root"
}
trap cleanup EXIT
cleanup
step "a fresh copy of the root"
cp -a "$pristine" "$root"
mount -t proc proc "$root/proc"
# apt logs its terminal through a pty ("Can not write log (Is /dev/pts mounted?)" without it).
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

for tool in swift swiftc; do
    in_root sh -c "command -v $tool" && fail "$tool is in the test root"
done
[ -z "$(in_root find / -xdev \( -name 'libswift*' -o -name 'libFoundation*' -o -name 'libdispatch*' \) -print -quit)" ] ||
    fail "a Swift runtime library is in the test root"

step "apt-get install ./$(basename "$deb")"
in_root apt-get update -qq
installing=$(now)
in_root sh -c "cd /tmp && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ./$(basename "$deb")"
install_seconds=$(since "$installing")

step "watcher --version, check, ldd"
[ "$(in_root watcher --version)" = "$version" ] || fail "watcher --version is not $version"
in_root watcher check --config /etc/watcher/watcher.json > /dev/null || fail "watcher check on the shipped config"
in_root ldd /usr/bin/watcher | sed 's/^/  /'
in_root ldd /usr/bin/watcher | grep -q 'not found' && fail "a library of the binary is missing"
in_root getent passwd watcher || fail "no watcher user"
[ "$(in_root stat -c '%U %a' /var/lib/watcher)" = "watcher 750" ] || fail "/var/lib/watcher is not watcher's, 0750"
[ "$(in_root stat -c '%a' /etc/watcher/watcher.env)" = "640" ] || fail "/etc/watcher/watcher.env is not 0640"

step "watcher demo --duration 5s, as the watcher user"
demo_log="$root/tmp/demo.log"
in_root setpriv --reuid=watcher --regid=watcher --init-groups \
    watcher demo --duration 5s --data /tmp/demo-data > "$demo_log" 2>&1 &
demo_pid=$!
for _ in $(seq 1 600); do
    grep -q "web UI: http://127.0.0.1:" "$demo_log" && break
    kill -0 "$demo_pid" 2>/dev/null || break
    sleep 0.05
done
running_seconds=$(since "$installing")
wait "$demo_pid" || { cat "$demo_log"; fail "watcher demo did not end with exit 0"; }
grep -q "watcher demo: simnet at" "$demo_log" || { cat "$demo_log"; fail "the demo did not start"; }
grep -q "web UI: http://127.0.0.1:" "$demo_log" || { cat "$demo_log"; fail "the demo served no web UI"; }
head -6 "$demo_log" | sed 's/^/  /'
echo "  … $(wc -l < "$demo_log") lines"
echo "apt-get install: $install_seconds s; from its start to the demo running (web UI up): $running_seconds s"

step "watcher run on the shipped config, as the watcher user"
in_root setpriv --reuid=watcher --regid=watcher --init-groups sh -c \
    'cd /var/lib/watcher && exec watcher run --config /etc/watcher/watcher.json' > "$root/tmp/run.log" 2>&1 &
run_pid=$!
for _ in $(seq 1 300); do
    grep -q "watcher started" "$root/tmp/run.log" && break
    kill -0 "$run_pid" 2>/dev/null || break
    sleep 0.1
done
grep -q "watcher started" "$root/tmp/run.log" || { cat "$root/tmp/run.log"; fail "watcher run did not start"; }
# Its pid is in the lock of its data directory (the background job is the chroot around it).
kill -TERM "$(cut -d' ' -f1 < "$root/var/lib/watcher/watcher.lock" | tr -dc 0-9)"
wait "$run_pid" || { cat "$root/tmp/run.log"; fail "watcher run did not stop with exit 0"; }
[ -f "$root/var/lib/watcher/data.mdb" ] || fail "no store in /var/lib/watcher"
grep -E "watcher (started|stopped)" "$root/tmp/run.log" | sed 's/^/  /'

step "upgrade over itself, keeping an edited conffile"
sed -i 's/"every": "1m"/"every": "2m"/' "$root/etc/watcher/watcher.json"
edited=$(md5sum < "$root/etc/watcher/watcher.json")
# The same package under the next version, so dpkg runs the whole upgrade path (prerm upgrade, postinst configure
# <old version>) and its conffile logic (shipped file unchanged, local edit kept without a question).
repack="$root/tmp/repack"
dpkg-deb -R "$deb" "$repack"
sed -i "s/^Version: .*/Version: ${version}+test1/" "$repack/DEBIAN/control"
dpkg-deb --root-owner-group -Zgzip -z1 -b "$repack" "$root/tmp/watcher_${version}+test1_${arch}.deb" > /dev/null
rm -rf "$repack"
in_root sh -c "cd /tmp && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./watcher_${version}+test1_${arch}.deb"
[ "$(in_root dpkg-query -W -f '${Version}' watcher)" = "${version}+test1" ] || fail "the upgrade did not install"
[ "$(md5sum < "$root/etc/watcher/watcher.json")" = "$edited" ] || fail "the upgrade replaced the edited conffile"
in_root watcher check --config /etc/watcher/watcher.json > /dev/null || fail "watcher check after the upgrade"
[ -f "$root/var/lib/watcher/data.mdb" ] || fail "the upgrade lost the store"

step "remove: the store, the user and the config stay"
in_root apt-get remove -y -q watcher
[ ! -e "$root/usr/bin/watcher" ] || fail "remove left /usr/bin/watcher"
[ -f "$root/var/lib/watcher/data.mdb" ] || fail "remove deleted the store"
[ -f "$root/etc/watcher/watcher.json" ] || fail "remove deleted the conffile"
in_root getent passwd watcher > /dev/null || fail "remove deleted the watcher user"

step "purge: the store, the user and the config go"
in_root apt-get purge -y -q watcher
[ ! -e "$root/var/lib/watcher" ] || fail "purge left /var/lib/watcher"
[ ! -e "$root/etc/watcher" ] || fail "purge left /etc/watcher"
in_root getent passwd watcher > /dev/null && fail "purge left the watcher user"
in_root getent group watcher > /dev/null && fail "purge left the watcher group"

step "package-test passed"
echo "  $(basename "$deb"): $(stat -c %s "$deb") bytes; apt-get install ${install_seconds} s; to a running demo ${running_seconds} s"
