#!/bin/sh
# The gateway container: fills in the project's nginx template from the environment and runs nginx in front.
# Run as the image runs it (busybox sh, and dash) by test/deploy/gateway-container.test.ts; arguments go to nginx
# (`gateway.sh -t` checks the rendered configuration and exits). GATEWAY_TEMPLATE is where the template is
# mounted (/etc/gateway, as docker-compose.yml mounts it).
set -eu
export NGINX_RUN_DIR="${NGINX_RUN_DIR:-/tmp/nginx}"
# /metrics is for the monitoring network: 404 in the API's error shape unless the operator says otherwise. Set
# apart from the expansion, not as ${METRICS_LOCATION:-...}: busybox sh and dash end that at the first "}", and
# the answer's JSON has braces.
if [ -z "${METRICS_LOCATION:-}" ]; then
  METRICS_LOCATION='default_type application/json; return 404 '\''{"error":{"code":"not_found","message":"no such route"}}'\'';'
fi
export METRICS_LOCATION
mkdir -p "$NGINX_RUN_DIR"
export GATEWAY_ADDRESS="${GATEWAY_ADDRESS:-0.0.0.0}"
# As the services' BODY_LIMIT_BYTES (1 MiB unless set).
export BODY_LIMIT="${BODY_LIMIT:-1m}"
# Service names are resolved while nginx runs, through the container's DNS server (compose's, 127.0.0.11): a
# recreated container's new address and a scaled-up service's new nodes get traffic within seconds
# (test/deploy/gateway-resolve.test.ts runs this script behind a DNS server it controls).
export QUERY_API="${QUERY_API:-query-api:3000}"
export COMMAND_API="${COMMAND_API:-command-api:3000}"
export UPSTREAMS=""
export RESOLVER="resolver ${DNS_RESOLVER:-$(awk '/^nameserver/ { print $2; exit }' /etc/resolv.conf)} valid=5s ipv6=off;"
envsubst '${GATEWAY_ADDRESS} ${GATEWAY_PORT} ${UPSTREAMS} ${RESOLVER} ${QUERY_API} ${COMMAND_API} ${NGINX_RUN_DIR} ${BODY_LIMIT} ${METRICS_LOCATION}' \
  < "${GATEWAY_TEMPLATE:-/etc/gateway/gateway.conf.template}" > "$NGINX_RUN_DIR/nginx.conf"
exec nginx -c "$NGINX_RUN_DIR/nginx.conf" "$@"
