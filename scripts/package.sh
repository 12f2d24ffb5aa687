#!/usr/bin/env bash
# `make package`: builds dist/watcher_<version>_<arch>.deb and dist/watcher-dbgsym_<version>_<arch>.deb from this
# tree with Debian's own tools (docs/operations.md, "Installing the Debian package").
#
# - the binary: a release build with the Swift standard library, Foundation and dispatch linked statically, so no
#   Swift runtime library is loaded at run time (checked with ldd), then stripped; its DWARF goes to the dbgsym
#   package, found by build id (/usr/lib/debug/.build-id/xx/yyyy.debug);
# - the version: what `watcher --version` prints (WatcherVersion.current); packaging/debian/changelog must have an
#   entry for it on top, or the build stops;
# - Depends: dpkg-shlibdeps from the binary's NEEDED libraries, plus ca-certificates (TLS to public providers),
#   tzdata and passwd (useradd in postinst);
# - the man page: swift-argument-parser's generate-manual tool (what its `generate-manual` plugin runs), built from
#   the resolved checkout and run on the release binary; the completions: `watcher --generate-completion-script`;
# - checks: lintian must report no error and no warning; `systemd-analyze verify` must accept the unit, and
#   `systemd-analyze security` must rate it OK or better.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
WORK=.build/package
DIST=dist
DEBIAN=packaging/debian

step() { printf '\n== %s\n' "$*"; }

step "release build (--static-swift-stdlib)"
"$SWIFT" build -c release --static-swift-stdlib --product watcher
BIN="$("$SWIFT" build -c release --static-swift-stdlib --show-bin-path)/watcher"

version=$("$BIN" --version)
changelog_version=$(dpkg-parsechangelog -l "$DEBIAN/changelog" -S Version)
if [ "$version" != "$changelog_version" ]; then
    echo "watcher --version is $version, but packaging/debian/changelog's latest entry is $changelog_version:" >&2
    echo "add an entry for $version (dch -v $version, or by hand) before packaging" >&2
    exit 1
fi
arch=$(dpkg --print-architecture)

step "no Swift runtime library at run time"
ldd "$BIN" | sed 's/^/  /'
if ldd "$BIN" | grep -E -i 'swift|Foundation|dispatch|BlocksRuntime|not found'; then
    echo "the binary still loads a Swift runtime library (or misses one): see above" >&2
    exit 1
fi

step "staging"
rm -rf "$WORK"
src="$WORK/src"
pkg="$src/debian/watcher"
dbg="$src/debian/watcher-dbgsym"
mkdir -p "$src/debian" "$DIST"
cp "$DEBIAN/control" "$DEBIAN/changelog" "$src/debian/"

install -D -m 0755 "$BIN" "$pkg/usr/bin/watcher"
build_id=$(readelf -n "$pkg/usr/bin/watcher" | sed -n 's/^ *Build ID: *//p')
[ -n "$build_id" ] || { echo "the binary has no build id" >&2; exit 1; }
debug_file="$dbg/usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug"
mkdir -p "$(dirname "$debug_file")"
objcopy --only-keep-debug --compress-debug-sections "$pkg/usr/bin/watcher" "$debug_file"
chmod 0644 "$debug_file"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/usr/bin/watcher"
objcopy --add-gnu-debuglink="$debug_file" "$pkg/usr/bin/watcher"

install -D -m 0644 "$DEBIAN/watcher.json" "$pkg/etc/watcher/watcher.json"
install -D -m 0640 "$DEBIAN/watcher.env" "$pkg/etc/watcher/watcher.env"
install -D -m 0644 "$DEBIAN/watcher.service" "$pkg/lib/systemd/system/watcher.service"
install -D -m 0644 "$DEBIAN/lintian-overrides" "$pkg/usr/share/lintian/overrides/watcher"

doc="$pkg/usr/share/doc/watcher"
install -d "$doc" "$dbg/usr/share/doc"
gzip -9n -c "$DEBIAN/changelog" > "$doc/changelog.gz"
gzip -9n -c docs/operations.md > "$doc/operations.md.gz"
gzip -9n -c README.md > "$doc/README.md.gz"
ln -s watcher "$dbg/usr/share/doc/watcher-dbgsym"

step "copyright: the bundled Swift packages' licences"
scripts/package-copyright.py "$DEBIAN/copyright.in" .build/workspace-state.json .build/checkouts \
    "$("$SWIFT" --version 2>&1 | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -1)" > "$doc/copyright"
chmod 0644 "$doc/copyright"

step "man page (swift-argument-parser's generate-manual) and completions"
"$SWIFT" build --package-path .build/checkouts/swift-argument-parser --scratch-path .build/package-tools \
    --product generate-manual
manual="$WORK/man"
mkdir -p "$manual"
# The date of the changelog entry, so the page is the same from one build to the next.
date=$(date -u -d "$(dpkg-parsechangelog -l "$DEBIAN/changelog" -S Date)" +%F)
.build/package-tools/debug/generate-manual "$BIN" --date "$date" --output-directory "$manual"
install -d "$pkg/usr/share/man/man1"
gzip -9n -c "$manual/watcher.1" > "$pkg/usr/share/man/man1/watcher.1.gz"
chmod 0644 "$pkg/usr/share/man/man1/watcher.1.gz"
install -d "$pkg/usr/share/bash-completion/completions" "$pkg/usr/share/zsh/vendor-completions" \
    "$pkg/usr/share/fish/vendor_completions.d"
# bash-completion sources the file: no hashbang.
"$BIN" --generate-completion-script bash | sed '1{/^#!/d}' > "$pkg/usr/share/bash-completion/completions/watcher"
"$BIN" --generate-completion-script zsh > "$pkg/usr/share/zsh/vendor-completions/_watcher"
"$BIN" --generate-completion-script fish > "$pkg/usr/share/fish/vendor_completions.d/watcher.fish"
chmod 0644 "$pkg"/usr/share/*/completions/watcher "$pkg"/usr/share/zsh/vendor-completions/_watcher \
    "$pkg"/usr/share/fish/vendor_completions.d/watcher.fish

step "control files"
install -d "$pkg/DEBIAN" "$dbg/DEBIAN"
install -m 0755 "$DEBIAN/postinst" "$DEBIAN/prerm" "$DEBIAN/postrm" "$pkg/DEBIAN/"
printf '/etc/watcher/watcher.env\n/etc/watcher/watcher.json\n' > "$pkg/DEBIAN/conffiles"
(
    cd "$src"
    dpkg-shlibdeps -Tdebian/watcher.substvars debian/watcher/usr/bin/watcher
    dpkg-gencontrol -pwatcher -v"$version" -Tdebian/watcher.substvars -Pdebian/watcher
    dpkg-gencontrol -pwatcher-dbgsym -v"$version" -Pdebian/watcher-dbgsym \
        -DAuto-Built-Package=debug-symbols -DBuild-Ids="$build_id"
)
find "$pkg" "$dbg" -type d -exec chmod 0755 {} +
for tree in "$pkg" "$dbg"; do
    (cd "$tree" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\n' | LC_ALL=C sort | xargs md5sum) \
        > "$tree/DEBIAN/md5sums"
    chmod 0644 "$tree/DEBIAN/md5sums"
done
sed -n 's/^/  /p' "$pkg/DEBIAN/control"

step "dpkg-deb"
deb="$DIST/watcher_${version}_${arch}.deb"
dbgsym="$DIST/watcher-dbgsym_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb"
dpkg-deb --root-owner-group -Zxz --build "$dbg" "$dbgsym"

step "systemd-analyze"
# verify looks for the ExecStart binary and the man page on this machine: point it at the staged tree.
unit="$WORK/unit/watcher.service"
mkdir -p "$(dirname "$unit")"
sed "s|/usr/bin/watcher|$PWD/$pkg/usr/bin/watcher|" "$DEBIAN/watcher.service" > "$unit"
systemd-analyze verify --man=no "$unit"
security=$(systemd-analyze security --offline=yes "$unit" | tail -1)
echo "  $security"
case "$security" in
    *" OK "* | *SAFE* | *PERFECT*) ;;
    *) echo "systemd-analyze security rates the unit worse than OK" >&2; exit 1 ;;
esac

step "lintian"
lintian --fail-on error,warning --display-info "$deb"

step "done"
ls -l "$deb" "$dbgsym" | sed 's/^/  /'
echo "  binary: $(stat -c %s "$pkg/usr/bin/watcher") bytes stripped, $(stat -c %s "$BIN") unstripped"
