// The containers' health check: 0 when HEALTHCHECK_URL (default: this service's /healthz) answers 2xx in time.
const url = process.env.HEALTHCHECK_URL ?? `http://127.0.0.1:${process.env.PORT ?? "3000"}/healthz`;
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_500) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
