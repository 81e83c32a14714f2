// The error catalogue: every error a client can see has a stable snake_case code and one HTTP status.

export const errorCatalogue = {
  validation_failed: 400,
  unauthenticated: 401,
  /** A request to /mcp (or its metadata) naming a Host this service does not answer to (ALLOWED_HOSTS). */
  host_not_allowed: 403,
  /** A browser's request to /mcp from a page of another origin (DNS rebinding, cross-site calls). */
  origin_not_allowed: 403,
  insufficient_scope: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  /** A per-user quota (tokens, webhooks, stored bytes) would be passed: the request is refused, nothing is stored. */
  quota_exceeded: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  /** Work on the caller's data needed more memory than a worker may hold (shared/workers/worker-pool.ts). */
  too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  /** A Range header naming no byte of the file (GET of an attachment). */
  range_not_satisfiable: 416,
  idempotency_key_mismatch: 422,
  /** Work on the caller's data ran past its time limit (shared/workers/worker-pool.ts). */
  too_complex: 422,
  /** Two versions of a page differ by more than a diff may compute (shared/history/page-diff.ts). */
  diff_too_large: 422,
  precondition_required: 428,
  rate_limited: 429,
  /** The caller already holds as many tasks of the worker pool as one caller may (shared/workers/worker-pool.ts). */
  too_many_tasks: 429,
  headers_too_large: 431,
  internal: 500,
  consistency_timeout: 503,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = errorCatalogue[code];
  }
}
