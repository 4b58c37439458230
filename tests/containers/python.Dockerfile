# STAND-IN for Docker Hub's python:3.11.7-slim-bookworm, for a machine that cannot reach a registry
# (tests/containers/build_standins.sh tags it with that name locally; docs/operations.md "Containers").
# It keeps the contract deploy/Dockerfile relies on: `python` and `pip` on PATH (a venv first on PATH,
# as Debian's own python3.11 is "externally managed", PEP 668), apt-get usable, ca-certificates, tzdata.
# Debian's python3.11 is 3.11.2, not 3.11.7: the same minor version, the same wheels (cp311).
# local-ca/ holds this machine's own added certificate authorities (/usr/local/share/ca-certificates, e.g. a
# TLS-inspecting egress proxy's), copied there by build_standins.sh, so pip inside trusts what the host trusts.
FROM shia-times-standin/debian:bookworm
LABEL org.shia-times.stand-in="python:3.11.7-slim-bookworm"
ENV LANG=C.UTF-8
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      python3.11 python3.11-venv ca-certificates netbase tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && python3.11 -m venv /usr/local/python
COPY local-ca/ /usr/local/share/ca-certificates/
RUN update-ca-certificates
ENV PATH=/usr/local/python/bin:$PATH
CMD ["python3"]
