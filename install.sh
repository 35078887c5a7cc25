#!/bin/sh
# Installs ipacheck from a release archive: no compiler, no Swift, no libraries to install first.
#
#   curl -fsSL https://github.com/ipacheck/ipacheck/releases/latest/download/install.sh | sh
#   curl -fsSL https://github.com/ipacheck/ipacheck/releases/latest/download/install.sh | sh -s -- --prefix ~/.local
#   sh install.sh --archive dist/ipacheck-0.1.0-linux-x86_64.tar.gz   # one you built or downloaded
#   sh install.sh --from dist                                         # a folder of archives and their SHA256SUMS
#
# Options:
#   --version V     the release to install (default: the latest)
#   --prefix DIR    where to install (default: /usr/local when it is writable or you are root, else ~/.local)
#   --base-url URL  where releases are published (default: https://github.com/ipacheck/ipacheck/releases;
#                   or IPACHECK_RELEASES_URL): URL/latest/download/FILE and URL/download/vV/FILE
#   --from DIR      take the archive for this machine and SHA256SUMS from a local folder instead
#   --archive FILE  install this archive (checked against the SHA256SUMS beside it when there is one)
#
# It picks the archive for this machine (ipacheck-V-linux-x86_64, -linux-aarch64 or -macos-universal), checks
# its SHA-256 against the release's SHA256SUMS before unpacking anything, and installs bin/ipacheck,
# lib/ipacheck/, the man page, the bash/zsh/fish completions and the licenses under the prefix. It uses sudo only
# when the prefix is not yours. Linux archives need glibc 2.34 or newer (Debian 12, Ubuntu 22.04, RHEL 9 and later).
# Exit status: 0 installed; 3 no release for this version and machine (no SHA256SUMS there, or no archive for
# this OS and architecture in it); 1 anything else (no network, checksum mismatch, too old a glibc); 64 bad arguments.
set -eu

usage() {
    echo "usage: install.sh [--version V] [--prefix DIR] [--base-url URL | --from DIR | --archive FILE]" >&2
    exit 64
}
fail() {
    echo "install.sh: $*" >&2
    exit 1
}
no_release() {
    echo "install.sh: $*" >&2
    exit 3
}

version=""
prefix=""
base_url="${IPACHECK_RELEASES_URL:-https://github.com/ipacheck/ipacheck/releases}"
from=""
archive=""
while [ $# -gt 0 ]; do
    case "$1" in
        --version | --prefix | --base-url | --from | --archive)
            [ $# -ge 2 ] && [ -n "$2" ] || { echo "install.sh: $1 needs a value" >&2; usage; }
            case "$1" in
                --version) version="${2#v}" ;;
                --prefix) prefix="$2" ;;
                --base-url) base_url="${2%/}" ;;
                --from) from="$2" ;;
                --archive) archive="$2" ;;
            esac
            shift 2
            ;;
        --version=* | --prefix=* | --base-url=* | --from=* | --archive=*)
            name="${1%%=*}"
            value="${1#*=}"
            [ -n "$value" ] || { echo "install.sh: $name needs a value" >&2; usage; }
            shift
            set -- "$name" "$value" "$@"
            ;;
        -h | --help)
            sed -n '2,23p' "$0" 2>/dev/null || true
            exit 0
            ;;
        *)
            echo "install.sh: unknown argument $1" >&2
            usage
            ;;
    esac
done

# This machine's archive.
case "$(uname -s)" in
    Linux)
        os=linux
        case "$(uname -m)" in
            x86_64 | amd64) arch=x86_64 ;;
            aarch64 | arm64) arch=aarch64 ;;
            *) fail "no release for $(uname -m) Linux; build from source (scripts/install)" ;;
        esac
        glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')" || glibc=""
        [ -n "$glibc" ] || fail "the Linux release needs glibc 2.34 or newer, this system has none (musl?); build from source"
        [ "$(printf '%s\n%s\n' 2.34 "$glibc" | sort -t. -k1,1n -k2,2n | head -n 1)" = 2.34 ] \
            || fail "the Linux release needs glibc 2.34 or newer, this system has $glibc; build from source"
        ;;
    Darwin)
        os=macos
        arch=universal
        ;;
    *) fail "no release for $(uname -s); build from source (scripts/install)" ;;
esac
suffix="-$os-$arch.tar.gz"

tmp="$(mktemp -d 2>/dev/null || mktemp -d -t ipacheck)"
trap 'rm -rf "$tmp"' EXIT INT TERM

fetch() { # URL FILE
    if command -v curl >/dev/null 2>&1; then
        curl -fsSL --retry 3 -o "$2" "$1"
    elif command -v wget >/dev/null 2>&1; then
        wget -q -O "$2" "$1"
    else
        fail "needs curl or wget to download $1 (or use --archive FILE)"
    fi
}
sha256() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | awk '{print $1}'
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | awk '{print $1}'
    elif command -v openssl >/dev/null 2>&1; then
        openssl dgst -sha256 "$1" | awk '{print $NF}'
    else
        fail "needs sha256sum, shasum or openssl to check the download"
    fi
}
# The line of SHA256SUMS for this machine: the one archive whose name ends in $suffix (and names $version if given).
pick() { # SUMS -> "HASH NAME"
    awk -v suffix="$suffix" -v version="$version" '{
        name = $2; sub(/^\*/, "", name)
        if (substr(name, length(name) - length(suffix) + 1) != suffix) next
        if (version != "" && name != "ipacheck-" version suffix) next
        print $1, name
    }' "$1" | tail -n 1
}

if [ -n "$archive" ]; then
    [ -f "$archive" ] || fail "no such archive: $archive"
    name="$(basename "$archive")"
    cp "$archive" "$tmp/$name"
    sums="$(dirname "$archive")/SHA256SUMS"
    if [ -f "$sums" ]; then
        expected="$(awk -v n="$name" '{f = $2; sub(/^\*/, "", f); if (f == n) print $1}' "$sums")"
        [ -n "$expected" ] || fail "$sums has no line for $name"
    else
        echo "install.sh: no SHA256SUMS beside $archive: installing it unchecked" >&2
        expected=""
    fi
else
    if [ -n "$from" ]; then
        [ -f "$from/SHA256SUMS" ] || fail "no SHA256SUMS in $from"
        cp "$from/SHA256SUMS" "$tmp/SHA256SUMS"
    else
        if [ -n "$version" ]; then url="$base_url/download/v$version"; else url="$base_url/latest/download"; fi
        # curl -f exits 22 and wget 8 when the server answers with an error such as 404: there is no such release.
        status=0
        fetch "$url/SHA256SUMS" "$tmp/SHA256SUMS" || status=$?
        case "$status" in
            0) ;;
            22 | 8) no_release "no release at $url (no SHA256SUMS there)" ;;
            *) fail "could not download $url/SHA256SUMS (no network?)" ;;
        esac
    fi
    line="$(pick "$tmp/SHA256SUMS")"
    [ -n "$line" ] || no_release "the release has no archive for this machine (*$suffix${version:+, version $version})"
    expected="${line%% *}"
    name="${line#* }"
    if [ -n "$from" ]; then
        cp "$from/$name" "$tmp/$name" || fail "no $name in $from"
    else
        echo "downloading $url/$name" >&2
        fetch "$url/$name" "$tmp/$name" || fail "could not download $url/$name"
    fi
fi
if [ -n "$expected" ]; then
    actual="$(sha256 "$tmp/$name")"
    [ "$actual" = "$expected" ] || fail "checksum mismatch for $name: expected $expected, got $actual"
    echo "checked $name: sha256 $actual" >&2
fi

mkdir "$tmp/unpacked"
gzip -dc "$tmp/$name" | (cd "$tmp/unpacked" && tar -xf -) || fail "could not unpack $name"
root="$tmp/unpacked/${name%.tar.gz}"
[ -x "$root/bin/ipacheck" ] || fail "$name holds no ${name%.tar.gz}/bin/ipacheck"

# Where to: /usr/local when we may write there, else the user's own ~/.local; sudo only when the prefix given is
# not writable by us.
if [ -z "$prefix" ]; then
    if [ "$(id -u)" -eq 0 ] || [ -w /usr/local ]; then prefix=/usr/local; else prefix="$HOME/.local"; fi
fi
existing="$prefix"
while [ ! -e "$existing" ]; do existing="$(dirname "$existing")"; done
sudo_cmd=""
if [ "$(id -u)" -ne 0 ] && [ ! -w "$existing" ]; then
    command -v sudo >/dev/null 2>&1 || fail "$prefix is not writable; choose --prefix DIR"
    sudo_cmd="sudo"
fi
$sudo_cmd mkdir -p "$prefix"
$sudo_cmd rm -rf "$prefix/lib/ipacheck"
(cd "$root" && find . -type d) | while read -r dir; do $sudo_cmd mkdir -p "$prefix/$dir"; done
(cd "$root" && find . -type f) | while read -r file; do
    mode=0644
    [ -x "$root/$file" ] && mode=0755
    $sudo_cmd cp "$root/$file" "$prefix/$file.ipacheck-new"
    $sudo_cmd chmod "$mode" "$prefix/$file.ipacheck-new"
    $sudo_cmd mv -f "$prefix/$file.ipacheck-new" "$prefix/$file"
done
(cd "$root" && find . -type l) | while read -r link; do $sudo_cmd cp -P "$root/$link" "$prefix/$link"; done

installed="$("$prefix/bin/ipacheck" --version)" || fail "$prefix/bin/ipacheck does not run on this machine"
echo "installed $prefix/bin/ipacheck $installed, its man page and bash/zsh/fish completions"
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on your PATH" >&2 ;;
esac
