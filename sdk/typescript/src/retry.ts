// Retries with exponential backoff on 429 and 503, honouring Retry-After.

/** How the client retries refused requests. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retries off). */
  maxRetries?: number;
  /** First backoff delay in ms (default 500), doubled at each retry, with jitter. */
  baseDelayMs?: number;
  /** Cap of one backoff delay in ms (default 30000). */
  maxDelayMs?: number;
  /** A Retry-After longer than this (seconds, default 60) is not waited for: the error is thrown. */
  maxRetryAfterSeconds?: number;
  /** HTTP statuses that are retried (default 429 and 503). */
  statuses?: readonly number[];
}

/** The retry options with every default filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** The retry policy for the given options (`false`: no retry). */
export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  const given = options === false ? { maxRetries: 0 } : options ?? {};
  return {
    maxRetries: given.maxRetries ?? 3,
    baseDelayMs: given.baseDelayMs ?? 500,
    maxDelayMs: given.maxDelayMs ?? 30_000,
    maxRetryAfterSeconds: given.maxRetryAfterSeconds ?? 60,
    statuses: given.statuses ?? [429, 503],
  };
}

/** Delay before retry number `attempt` (0-based): the exponential backoff with jitter (50 to 100 %
 * of base * 2^attempt, capped), never shorter than the server's Retry-After. */
export function backoffDelayMs(policy: RetryPolicy, attempt: number, retryAfterSeconds: number | null,
  random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = exponential * (0.5 + random() / 2);
  return Math.max(jittered, (retryAfterSeconds ?? 0) * 1000);
}

/** Wait `ms`, or reject early when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
