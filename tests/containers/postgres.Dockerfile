# STAND-IN for Docker Hub's postgres:15-bookworm, for a machine that cannot reach a registry
# (tests/containers/build_standins.sh tags it with that name locally; docs/operations.md "Containers").
# It keeps the contract deploy/compose.yaml relies on: POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB
# read on the first start (an empty PGDATA), PGDATA=/var/lib/postgresql/data, password (scram-sha-256)
# logins over TCP, pg_isready and psql on PATH, the server on the Unix socket /var/run/postgresql too.
FROM shia-times-standin/debian:bookworm
LABEL org.shia-times.stand-in="postgres:15-bookworm"
ENV LANG=C.UTF-8
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/run/postgresql /var/lib/postgresql/data \
 && chown postgres:postgres /var/run/postgresql /var/lib/postgresql/data
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
# As the official image: SIGINT is PostgreSQL's fast shutdown.
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
