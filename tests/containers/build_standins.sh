#!/bin/sh
# Local STAND-INS for the three public base images deploy/ names, for a machine whose Docker engine cannot
# reach a registry (docs/operations.md "Containers"). For each base that is absent, `docker pull` is tried
# first; only when that fails is a stand-in built from a debootstrap'd Debian bookworm (deb.debian.org) and
# tagged with the public name, on this machine only, so deploy/Dockerfile and deploy/compose.yaml run
# unchanged. A stand-in carries the label org.shia-times.stand-in; `docker rmi` it to pull the real one.
# Needs: root, docker (a running engine), debootstrap.  Usage: sh tests/containers/build_standins.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
suite=bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
base=shia-times-standin/debian:$suite

have() { docker image inspect "$1" >/dev/null 2>&1; }

need=""
for pair in python:3.11.7-slim-bookworm=python postgres:15-bookworm=postgres nginx:1.27-bookworm=nginx; do
  image=${pair%=*}
  if have "$image"; then echo "present: $image"; continue; fi
  if timeout 60 docker pull -q "$image" >/dev/null 2>&1; then echo "pulled: $image"; continue; fi
  need="$need $pair"
done
[ -z "$need" ] && exit 0

if ! have "$base"; then
  rootfs=$(mktemp -d /tmp/standin-rootfs.XXXXXX)
  trap 'rm -rf "$rootfs"' EXIT
  echo "debootstrap $suite from $mirror (about 2 minutes)"
  debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >/dev/null
  tar -C "$rootfs" -c . | docker import -c 'CMD ["bash"]' - "$base" >/dev/null
  echo "imported: $base"
fi
# The build context: these files, and this machine's added certificate authorities (for pip behind a
# TLS-inspecting proxy; none is fine). Public certificates only: nothing secret enters an image.
context=$(mktemp -d /tmp/standin-context.XXXXXX)
trap 'rm -rf "$context" ${rootfs:-}' EXIT
cp "$here"/*.Dockerfile "$here"/postgres-entrypoint.sh "$context"/
mkdir "$context/local-ca"
cp /usr/local/share/ca-certificates/*.crt "$context/local-ca/" 2>/dev/null || true
for pair in $need; do
  image=${pair%=*}
  docker build -q -t "$image" -f "$context/${pair#*=}.Dockerfile" "$context" >/dev/null
  echo "stand-in built: $image"
done
