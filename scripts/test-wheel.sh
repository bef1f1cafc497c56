#!/usr/bin/env bash
# The binary wheel as a MuJoCo user installs it, where nothing of this machine can help (docs/python.md, "The binary
# wheel"): a clean Debian 12 root filesystem made with debootstrap from Debian's packages (python3, python3-venv,
# ca-certificates; no compiler, no -dev package, none of mjhand's build dependencies), in which
# scripts/wheel-user-check.sh makes a virtual environment, runs `pip install mujoco` first, installs the wheel and
# checks what the user would (MuJoCo untouched and importing as before, the README's Python block,
# `python -m mjhand analyze`, ldd resolving inside the wheel and the base system).
#   scripts/test-wheel.sh WHEEL            needs root (debootstrap, chroot); the root is kept in build-debian-root/
#                                          (~275 MB; made in ~1 min, reused while its package list is the same)
#   scripts/test-wheel.sh WHEEL --host     the same check in a venv of this machine's python3 (no root needed)
#   scripts/test-wheel.sh --make-root      only make (or keep) the root: scripts/test.sh runs it in the background
#                                          while the Release build compiles (it mostly downloads and unpacks)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
packages="python3,python3-venv,ca-certificates"
debian="$root/build-debian-root"
# Nothing of this machine stays mounted in the root (a killed earlier run): never delete through a mount.
unmount_all() { { grep -o " $debian/[^ ]*" /proc/mounts || true; } | sort -r | while read -r m; do umount "$m"; done; }
make_root() {
  command -v debootstrap >/dev/null || { echo "$0: debootstrap is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
  [ "$(id -u)" -eq 0 ] || { echo "$0: debootstrap and chroot need root" >&2; exit 1; }
  unmount_all
  if [ "$(cat "$debian/.mjhand-packages" 2>/dev/null)" != "$packages" ]; then
    rm -rf --one-file-system "$debian"
    log="$(mktemp)"
    debootstrap --variant=minbase --include="$packages" bookworm "$debian" http://deb.debian.org/debian >"$log" 2>&1 ||
      { tail -20 "$log" >&2; exit 1; }
    rm -f "$log"
    echo "$packages" >"$debian/.mjhand-packages"
  fi
}
if [ "${1:-}" = --make-root ]; then
  make_root
  exit 0
fi
wheel="$(cd "$(dirname "${1:?usage: $0 WHEEL [--host] | --make-root}")" && pwd)/$(basename "$1")"
[ -f "$wheel" ] || { echo "$0: no wheel $1" >&2; exit 2; }
# A C program linked with MuJoCo (as `simulate` is) loads the wheel's plugin library, which links no libmujoco file.
if command -v cc >/dev/null; then
  venv="${MJHAND_VENV:-$root/.venv}"
  c="$(mktemp -d)"
  "$venv/bin/python" -m zipfile -e "$wheel" "$c/wheel"
  inc="$("$venv/bin/python" -c 'import mujoco; print(mujoco.HEADERS_DIR)')"
  lib="$(dirname "$("$venv/bin/python" -c 'import mujoco; print(mujoco.__file__)')")"
  cc -o "$c/load" "$root/tests/python/package/load_plugin_library.c" -I"$(dirname "$inc")" -I"$inc" \
    "$(ls "$lib"/libmujoco.so.* | head -1)" -Wl,-rpath,"$lib"
  "$c/load" "$c/wheel/mjhand/plugin/libmjhand_plugins.so" "$root/models/grasp_sensor_scene.xml"
  rm -rf "$c"
fi
if [ "${2:-}" = --host ]; then
  exec sh "$root/scripts/wheel-user-check.sh" "$wheel" "$root/README.md" python3
fi
make_root
# The root must not hold what it is meant to lack.
for absent in gcc g++ cc cmake; do
  if chroot "$debian" /bin/sh -c "command -v $absent" >/dev/null; then echo "$0: the root has $absent" >&2; exit 1; fi
done
check="$debian/tmp/mjhand-check"
rm -rf "$check"
mkdir -p "$check"
cp "$wheel" "$root/README.md" "$root/scripts/wheel-user-check.sh" "$check/"
cp /etc/resolv.conf "$debian/etc/resolv.conf"
cp "${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}" "$check/ca.crt"  # this machine's view of PyPI's certificates
trap unmount_all EXIT
for fs in proc dev; do mount --bind "/$fs" "$debian/$fs"; done
# This machine's way to PyPI (proxy, index) goes along; nothing else of its environment does.
pass=()
for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY PIP_INDEX_URL PIP_EXTRA_INDEX_URL; do
  if [ -n "${!v:-}" ]; then pass+=("$v=${!v}"); fi
done
chroot "$debian" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "${pass[@]}" \
  PIP_CERT=/tmp/mjhand-check/ca.crt PIP_DEFAULT_TIMEOUT=180 MJHAND_TEST_MUJOCO="${MJHAND_TEST_MUJOCO:-mujoco==4.0.0}" \
  MJHAND_TEST_OLD_MUJOCO="${MJHAND_TEST_OLD_MUJOCO:-mujoco==3.17.0}" \
  /bin/sh /tmp/mjhand-check/wheel-user-check.sh "/tmp/mjhand-check/$(basename "$wheel")" /tmp/mjhand-check/README.md \
  python3
