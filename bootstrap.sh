#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Get a Debian 12 machine from nothing to a first script run in the VM:
#   1. build and test dependencies (apt),
#   2. three test kernels (6.1, its PREEMPT_RT flavour and the newest 6.12)
#      with headers, and each installed kernel's vmlinux with DWARF at
#      /usr/lib/debug/boot/ (plus a few modules' DWARF, DBG_MODULES, at
#      /usr/lib/debug/lib/modules/RELEASE/),
#   3. autoreconf / configure / make,
#   4. a hello-world script run inside QEMU.
# Safe to re-run: every step is skipped when its result is already there.
set -Eeuo pipefail

cd "$(dirname "$0")"

say() { echo "bootstrap: $*"; }
die() { echo "bootstrap: error: $*" >&2; exit 1; }
step=starting
trap 'echo "bootstrap: error: step \"$step\" failed (line $LINENO: $BASH_COMMAND)" >&2' ERR

export DEBIAN_FRONTEND=noninteractive

DEPS=(autoconf automake libtool pkg-config make gcc libc6-dev
      libdw-dev libelf-dev elfutils libsqlite3-dev libnss3-dev
      libavahi-client-dev qemu-system-x86 busybox-static cpio kmod zstd bc
      flex bison libssl-dev systemtap-sdt-dev)
KERNEL_PKGS=(linux-image-amd64 linux-headers-amd64)
# The 6.12 series comes from bookworm-security; use it when apt knows it.
KERNEL_612=(linux-image-6.12-amd64 linux-headers-6.12-amd64)
# PREEMPT_RT (sleeping spinlocks, preemptible handlers): where tracers break.
KERNEL_RT=(linux-image-rt-amd64 linux-headers-rt-amd64)

is_root() { [ "$(id -u)" -eq 0 ]; }

installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

# apt-get update, only when the package lists are missing or a day old.
apt_fresh=
apt_update() {
	[ -n "$apt_fresh" ] && return 0
	if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' \
			-mtime -1 -print -quit 2>/dev/null)" ]; then
		step="apt-get update"
		say "apt-get update"
		apt-get update -q
	fi
	apt_fresh=1
}

has_candidate() {
	local c
	c=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2 }')
	[ -n "$c" ] && [ "$c" != "(none)" ]
}

# ---- 1 + 2a: packages ----
step="packages"
want=("${DEPS[@]}" "${KERNEL_PKGS[@]}")
for k in KERNEL_612 KERNEL_RT; do
	declare -n pkgs=$k
	if installed "${pkgs[0]}" || has_candidate "${pkgs[0]}"; then
		want+=("${pkgs[@]}")
	fi
	unset -n pkgs
done
missing=()
for p in "${want[@]}"; do
	installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if ! is_root; then
		echo "bootstrap: missing packages: ${missing[*]}" >&2
		echo "bootstrap: run as root, or install them with:" >&2
		echo "  apt-get update && apt-get install -y --no-install-recommends ${want[*]}" >&2
		exit 1
	fi
	apt_update
	# The 6.12 and RT meta packages may only be known after the update.
	for k in KERNEL_612 KERNEL_RT; do
		declare -n pkgs=$k
		if ! printf '%s\n' "${want[@]}" | grep -qx "${pkgs[0]}" &&
		   has_candidate "${pkgs[0]}"; then
			missing+=("${pkgs[@]}")
		fi
		unset -n pkgs
	done
	step="apt-get install"
	say "installing ${missing[*]}"
	apt-get install -y -q --no-install-recommends "${missing[@]}"
else
	say "packages: all installed"
fi

# ---- 2b: kernels and their DWARF vmlinux ----
# A release is usable when both its image and its kbuild tree are there.
releases=()
for b in /lib/modules/*/build; do
	[ -e "$b" ] || continue
	r=${b#/lib/modules/}
	r=${r%/build}
	if [ -e "/boot/vmlinuz-$r" ]; then
		releases+=("$r")
	fi
done
[ ${#releases[@]} -gt 0 ] || die "no kernel with headers installed (/lib/modules/*/build, /boot/vmlinuz-*)"
say "test kernels: ${releases[*]}"

dbgdir=/usr/lib/debug/boot
# Modules whose DWARF the tapsets use (nfsd.*, nfs.*, sunrpc.*, autofs),
# and the rest of nfsd's dependencies (grace, nfs_acl, auth_rpcgss): the
# run tests load these uncompressed debug copies in the VM.  Also the file
# systems and protocol that SystemTap's example scripts probe by module
# (io/enospc: ext4, xfs, btrfs; security-band-aids: xfs, dccp*).  Their debug
# files go to the conventional path below, where the translator's module
# lookup finds them.  Every other module's (5-7 GB) stays in the package.
DBG_MODULES=(sunrpc lockd nfs nfsv3 nfsv4 nfsd autofs4 grace nfs_acl auth_rpcgss
	     ext4 xfs btrfs dccp dccp_ipv4 dccp_ipv6 dccp_diag)
moddbg=/usr/lib/debug/lib/modules

# The paths under /lib/modules/$1/ of DBG_MODULES, uncompressed, one a line.
dbg_module_paths() {
	awk -F: -v want="${DBG_MODULES[*]}" '
		BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) todo[w[i]] = 1 }
		{ m = $1; sub(/.*\//, "", m); sub(/\.ko(\.[a-z]+)?$/, "", m)
		  if (m in todo) { p = $1; sub(/\.ko\.[a-z]+$/, ".ko", p); print p; delete todo[m] } }
	' "/lib/modules/$1/modules.dep"
}

for r in "${releases[@]}"; do
	# What this release still lacks: its vmlinux and/or module debug files.
	members=()
	if [ ! -s "$dbgdir/vmlinux-$r" ]; then
		members+=("./usr/lib/debug/boot/vmlinux-$r")
	fi
	nmod=0
	while read -r p; do
		[ -n "$p" ] || continue
		[ -s "$moddbg/$r/$p" ] || members+=("./usr/lib/debug/lib/modules/$r/$p")
		nmod=$((nmod + 1))
	done < <(dbg_module_paths "$r")
	if [ ${#members[@]} -eq 0 ]; then
		say "debuginfo-$r: present (vmlinux, $nmod modules)"
		continue
	fi
	if ! is_root; then
		echo "bootstrap: debuginfo for $r is missing (${members[*]#./}); run this script as root to extract it from linux-image-$r-dbg" >&2
		exit 1
	fi
	step="debuginfo-$r"
	apt_update
	tmpbase=${TMPDIR:-/var/tmp}
	free_kb=$(df -Pk "$tmpbase" | awk 'NR == 2 { print $4 }')
	[ "$free_kb" -ge 2500000 ] ||
		die "debuginfo-$r: need 2.5 GB free in $tmpbase for the -dbg package (have $((free_kb / 1024)) MB; set TMPDIR)"
	tmp=$(mktemp -d "$tmpbase/stap-dbg.XXXXXX")
	# apt-get download drops privileges to _apt: let it write here.
	chmod 755 "$tmp"
	chown _apt "$tmp" 2>/dev/null || true
	trap 'rm -rf "$tmp"' EXIT
	say "debuginfo-$r: downloading linux-image-$r-dbg (about 1 GB)"
	(cd "$tmp" && apt-get download -q "linux-image-$r-dbg")
	say "debuginfo-$r: extracting ${#members[@]} files"
	deb=$(ls "$tmp"/*.deb)
	# One pass over the archive for the vmlinux and the modules alike.
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "${members[@]}"
	rm -f "$deb"
	for m in "${members[@]}"; do
		m=${m#./}
		[ -s "$tmp/$m" ] || die "linux-image-$r-dbg has no $m"
		mkdir -p "/${m%/*}"
		# Whole files only: a reader never sees a half-written one.
		mv "$tmp/$m" "/$m.part"
		mv "/$m.part" "/$m"
	done
	rm -rf "$tmp"
	trap - EXIT
	say "debuginfo-$r: vmlinux $(du -h "$dbgdir/vmlinux-$r" | cut -f1), $nmod modules in $moddbg/$r"
done

if [ "${BOOTSTRAP_PROVISION_ONLY:-}" = 1 ]; then
	say "provisioning done (BOOTSTRAP_PROVISION_ONLY=1)"
	exit 0
fi

# ---- 3: build ----
if [ ! -e configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ]; then
	step="autoreconf"
	say "autoreconf -fi"
	autoreconf -fi
fi
if [ ! -e Makefile ] || [ ! -e config.status ] || [ configure -nt config.status ]; then
	step="configure"
	say "./configure"
	./configure
fi
step="make"
say "make -j2"
make -j2

# ---- 4: first script, in the VM ----
step="hello in the VM"
say "running a first script in the VM"
./stap --vm -e 'probe begin { printf("hello %s\n", "world"); exit() }'
say "done"
