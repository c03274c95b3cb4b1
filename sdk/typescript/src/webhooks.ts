// Webhook verification: X-Webhook-Signature is lower-case hex HMAC-SHA256, keyed with the
// subscription secret (UTF-8), over X-Webhook-Timestamp + "\n" + the raw body; during a secret
// rotation it holds two comma-separated values. Timestamps are Unix milliseconds, accepted
// within a window (300 s); a delivery id (X-Webhook-Id) is processed once.
import { WebhookVerificationError } from "./errors.js";
import { subtle, timingSafeEqual, toHex, utf8 } from "./encoding.js";

/** The tolerance of the contract: 300 seconds either side of the receiver's clock. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Lower-case hex HMAC-SHA256 of `timestamp + "\n" + body` keyed with the secret. */
export async function webhookSignature(secret: string, timestamp: string, body: string | Uint8Array | ArrayBuffer): Promise<string> {
  const key = await subtle().importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const raw = utf8(body);
  const prefix = utf8(timestamp + "\n");
  const message = new Uint8Array(prefix.length + raw.length);
  message.set(prefix);
  message.set(raw, prefix.length);
  return toHex(await subtle().sign("HMAC", key, message));
}

/** Options of a check. */
export interface WebhookCheckOptions {
  /** Seconds either side of now (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock in ms (default Date.now()). */
  now?: number;
}

/** Why a check failed, or null when it passed (signature and time window; not replays). */
export async function checkWebhookSignature(secrets: string | readonly string[], timestamp: string,
  body: string | Uint8Array | ArrayBuffer, signature: string, options: WebhookCheckOptions = {}): Promise<"malformed" | "timestamp" | "signature" | null> {
  if (!/^\d{1,16}$/.test(timestamp) || !signature) return "malformed";
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs((options.now ?? Date.now()) - Number(timestamp)) > tolerance * 1000) return "timestamp";
  const candidates = signature.split(",").map((v) => v.trim().toLowerCase());
  let found = false;
  for (const secret of typeof secrets === "string" ? [secrets] : secrets) {
    const expected = await webhookSignature(secret, timestamp, body);
    for (const candidate of candidates) found = timingSafeEqual(expected, candidate) || found;
  }
  return found ? null : "signature";
}

/** True when the signature matches one of the secrets and the timestamp is fresh. */
export async function verifyWebhookSignature(secrets: string | readonly string[], timestamp: string,
  body: string | Uint8Array | ArrayBuffer, signature: string, options: WebhookCheckOptions = {}): Promise<boolean> {
  return (await checkWebhookSignature(secrets, timestamp, body, signature, options)) === null;
}

/** Remembers delivery ids already processed (replays and at-least-once repeats). */
export interface ReplayStore {
  /** Record the id; false when it was already recorded (within its time to live). */
  add(id: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forget the id (its processing failed: the sender's retry must be accepted). */
  delete(id: string): void | Promise<void>;
}

/** An in-memory ReplayStore (one process); use a shared store (Redis SET NX PX) across hosts. */
export class MemoryReplayStore implements ReplayStore {
  private readonly seen = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  add(id: string, ttlMs: number): boolean {
    const now = this.now();
    for (const [key, expires] of this.seen) {
      if (expires > now) break; // insertion order = expiry order (one ttl per receiver)
      this.seen.delete(key);
    }
    if ((this.seen.get(id) ?? 0) > now) return false;
    this.seen.delete(id);
    this.seen.set(id, now + ttlMs);
    return true;
  }

  delete(id: string): void {
    this.seen.delete(id);
  }
}

/** A verified delivery. */
export interface WebhookEvent<T = Record<string, unknown>> {
  /** X-Webhook-Id: the event's id, the same on every retry. */
  id: string;
  /** X-Webhook-Event, e.g. "resource.published". */
  event: string;
  timestamp: number;
  data: T;
  /** The body as received. */
  body: string;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === lower) return Array.isArray(value) ? value.join(",") : value;
  }
  return undefined;
}

/** Options of a receiver. */
export interface WebhookReceiverOptions extends WebhookCheckOptions {
  /** The subscription's secret, or the secrets held during a rotation. */
  secrets: string | readonly string[];
  /** Where processed delivery ids are kept (default: in memory). */
  replay?: ReplayStore;
  /** The clock in ms (default Date.now). */
  clock?: () => number;
}

/** Verifies deliveries in any framework: give it the headers and the raw body (before JSON
 * parsing). Refused deliveries throw WebhookVerificationError: answer 4xx, except a replay
 * (an id already processed: answer 2xx so the sender stops). When processing a verified
 * delivery fails, call `release(id)` before answering 5xx so the sender's retry is accepted. */
export class WebhookReceiver {
  private readonly replay: ReplayStore;
  private readonly clock: () => number;

  constructor(private readonly options: WebhookReceiverOptions) {
    this.clock = options.clock ?? Date.now;
    this.replay = options.replay ?? new MemoryReplayStore(this.clock);
  }

  /** Verify one delivery and record its id. */
  async verify<T = Record<string, unknown>>(headers: HeaderSource, rawBody: string | Uint8Array | ArrayBuffer): Promise<WebhookEvent<T>> {
    const id = header(headers, "X-Webhook-Id");
    const timestamp = header(headers, "X-Webhook-Timestamp");
    const signature = header(headers, "X-Webhook-Signature");
    if (!id || !timestamp || !signature) throw new WebhookVerificationError("malformed", "webhook headers missing");
    const tolerance = this.options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
    const failure = await checkWebhookSignature(this.options.secrets, timestamp, rawBody, signature,
      { toleranceSeconds: tolerance, now: this.clock() });
    if (failure === "timestamp") throw new WebhookVerificationError(failure, "webhook timestamp outside the window");
    if (failure) throw new WebhookVerificationError(failure, `webhook ${failure} check failed`);
    const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
    let parsed: { event?: unknown; data?: unknown };
    try {
      parsed = JSON.parse(body) as { event?: unknown; data?: unknown };
    } catch {
      throw new WebhookVerificationError("malformed", "webhook body is not JSON");
    }
    // An id is kept for the whole window on both sides: a replay inside it is refused, one
    // outside it fails the timestamp check.
    if (!(await this.replay.add(id, 2 * tolerance * 1000))) {
      throw new WebhookVerificationError("replay", `webhook ${id} was already received`);
    }
    return {
      id, timestamp: Number(timestamp), body,
      event: String(parsed.event ?? header(headers, "X-Webhook-Event") ?? ""), data: parsed.data as T,
    };
  }

  /** Forget a delivery whose processing failed, so that the sender's retry is accepted. */
  async release(id: string): Promise<void> {
    await this.replay.delete(id);
  }

  /** Verify a fetch-style Request (service workers, Deno, Bun, edge runtimes, Node's Request). */
  async verifyRequest<T = Record<string, unknown>>(request: Request): Promise<WebhookEvent<T>> {
    return this.verify<T>(request.headers, new Uint8Array(await request.arrayBuffer()));
  }
}
