// Typed errors. Every refusal of the server is the envelope {code, msg, traceId, ...} with an HTTP
// status; ModhubError carries them all.
import { ERROR_CODES } from "./generated/operations.js";

/** Name of a code of the contract's error catalog (RATE_LIMIT_EXCEEDED, ...). */
export type ErrorName = keyof typeof ERROR_CODES;

const NAMES = new Map<number, ErrorName>(
  (Object.entries(ERROR_CODES) as [ErrorName, { code: number }][]).map(([name, v]) => [v.code, name]),
);

/** A request the server refused (or an answer that is not the envelope, then `code` is null). */
export class ModhubError extends Error {
  /** The envelope's code (200404, ...), null when the answer was not the envelope. */
  readonly code: number | null;
  /** The envelope's msg (or the start of a non-envelope body). */
  readonly msg: string;
  /** The envelope's traceId (= X-Request-Id): quote it when reporting a problem. */
  readonly traceId: string | null;
  /** The HTTP status. */
  readonly status: number;
  /** Seconds to wait before retrying (Retry-After), when the server said so. */
  readonly retryAfter: number | null;
  readonly method: string;
  readonly path: string;

  constructor(init: {
    code: number | null; msg: string; traceId: string | null; status: number;
    retryAfter?: number | null; method: string; path: string;
  }) {
    const name = init.code === null ? "" : ` ${NAMES.get(init.code) ?? ""}`;
    super(`${init.method} ${init.path}: HTTP ${init.status}, code ${init.code ?? "-"}${name}: ${init.msg}` +
      (init.traceId ? ` (traceId ${init.traceId})` : ""));
    this.name = "ModhubError";
    this.code = init.code;
    this.msg = init.msg;
    this.traceId = init.traceId;
    this.status = init.status;
    this.retryAfter = init.retryAfter ?? null;
    this.method = init.method;
    this.path = init.path;
  }

  /** The catalog name of the code (e.g. "RECORD_NOT_FOUND"), if the catalog knows it. */
  get codeName(): ErrorName | undefined {
    return this.code === null ? undefined : NAMES.get(this.code);
  }

  /** True when this error has the catalog code of `name`. */
  is(name: ErrorName): boolean {
    return this.code === ERROR_CODES[name].code;
  }

  /** Build the error from a refused answer (reads its body). */
  static async fromResponse(response: Response, method: string, path: string): Promise<ModhubError> {
    const text = await response.text();
    const retryAfter = parseRetryAfterSeconds(response.headers.get("Retry-After"));
    const fallbackTrace = response.headers.get("X-Request-Id");
    try {
      const body = JSON.parse(text) as { code?: unknown; msg?: unknown; traceId?: unknown };
      if (typeof body.code === "number" && typeof body.msg === "string") {
        return new ModhubError({
          code: body.code, msg: body.msg, status: response.status, retryAfter, method, path,
          traceId: typeof body.traceId === "string" ? body.traceId : fallbackTrace,
        });
      }
    } catch {
      // not JSON: a proxy's page, for instance
    }
    return new ModhubError({
      code: null, msg: text.slice(0, 200) || response.statusText, traceId: fallbackTrace,
      status: response.status, retryAfter, method, path,
    });
  }
}

/** Retry-After as seconds (delta-seconds or an HTTP date), null when absent or unreadable. */
export function parseRetryAfterSeconds(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** Downloaded bytes whose hash is not the published one. */
export class HashMismatchError extends Error {
  constructor(readonly algorithm: string, readonly expected: string, readonly actual: string) {
    super(`${algorithm} mismatch: expected ${expected}, got ${actual}`);
    this.name = "HashMismatchError";
  }
}

/** An install script whose signature does not verify against the published key set. */
export class InstallSignatureError extends Error {
  constructor(message: string, readonly keyId: string | null) {
    super(message);
    this.name = "InstallSignatureError";
  }
}

/** Why a webhook request was refused. */
export type WebhookFailure = "malformed" | "timestamp" | "signature" | "replay";

/** A webhook request that must be refused (answer 400/401 and do not process it). */
export class WebhookVerificationError extends Error {
  constructor(readonly reason: WebhookFailure, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}
