#!/bin/sh
# The gateway container: fills in the project's nginx template from the environment and runs nginx in front.
set -eu
export NGINX_RUN_DIR="${NGINX_RUN_DIR:-/tmp/nginx}"
export METRICS_LOCATION="${METRICS_LOCATION:-default_type application/json; return 404 '{\"error\":{\"code\":\"not_found\",\"message\":\"no such route\"}}';}"
mkdir -p "$NGINX_RUN_DIR"
export GATEWAY_ADDRESS="${GATEWAY_ADDRESS:-0.0.0.0}"
# As the services' BODY_LIMIT_BYTES (1 MiB unless set).
export BODY_LIMIT="${BODY_LIMIT:-1m}"
envsubst '${GATEWAY_ADDRESS} ${GATEWAY_PORT} ${COMMAND_API} ${QUERY_API_SERVERS} ${NGINX_RUN_DIR} ${BODY_LIMIT} ${METRICS_LOCATION}' \
  < /etc/gateway/gateway.conf.template > "$NGINX_RUN_DIR/nginx.conf"
exec nginx -c "$NGINX_RUN_DIR/nginx.conf"
