# STAND-IN for Docker Hub's nginx:1.27-bookworm, for a machine that cannot reach a registry
# (tests/containers/build_standins.sh tags it with that name locally; docs/operations.md "Containers").
# Debian bookworm's nginx (1.22), no third-party modules, as the official image has none either (so no
# brotli_static: deploy/render_nginx_conf.py leaves it out when the module is absent).
FROM shia-times-standin/debian:bookworm
LABEL org.shia-times.stand-in="nginx:1.27-bookworm"
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx-light \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/default
# As the official image: a graceful stop (workers finish their requests).
STOPSIGNAL SIGQUIT
EXPOSE 80
CMD ["nginx", "-g", "daemon off;"]
