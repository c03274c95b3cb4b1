// The typed error and the retry policy, against the live server.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ERROR_CODES, ModhubError, backoffDelayMs, parseRetryAfterSeconds, retryPolicy } from "@modhub/client";
import { client, quotaClient } from "./live.js";

test("a refusal is a ModhubError with code, msg, traceId and status", async () => {
  const error = await client().get("/openapi/v2/mods/{postId}", { path: { postId: 987654321 } })
    .then(() => assert.fail("expected a refusal"), (e: unknown) => e);
  assert.ok(error instanceof ModhubError);
  assert.equal(error.code, ERROR_CODES.RECORD_NOT_FOUND.code);
  assert.equal(error.status, 404);
  assert.equal(error.codeName, "RECORD_NOT_FOUND");
  assert.match(error.msg, /987654321/);
  assert.match(error.traceId ?? "", /^[A-Za-z0-9._-]{1,64}$/);
  assert.match(error.message, /RECORD_NOT_FOUND/);
});

test("a 503 is retried, each attempt signed anew; Retry-After sets the delay", async () => {
  const seen: { timestamp: string | null; status: number }[] = [];
  let failures = 2;
  const flaky: typeof fetch = async (input, init) => {
    const timestamp = new Headers(init?.headers).get("X-Timestamp");
    if (failures-- > 0) {
      seen.push({ timestamp, status: 503 });
      return new Response('{"code":200503,"ok":false,"msg":"down","level":"error","data":null,"dataType":0,"traceId":"t"}',
        { status: 503, headers: { "Retry-After": "0", "Content-Type": "application/json" } });
    }
    const response = await fetch(input, init);
    seen.push({ timestamp, status: response.status });
    return response;
  };
  const sections = await client({ fetch: flaky, retry: { baseDelayMs: 1 } }).get("/openapi/v2/games");
  assert.ok(Array.isArray(sections));
  assert.deepEqual(seen.map((s) => s.status), [503, 503, 200]);
  assert.equal(new Set(seen.map((s) => s.timestamp)).size, 3); // a new timestamp per attempt
});

test("a write is retried only with an Idempotency-Key on an operation that honours it", async () => {
  const sent: Headers[] = [];
  const down: typeof fetch = async (input, init) => {
    sent.push(new Headers(init?.headers));
    if (sent.length < 3) return new Response("", { status: 503, headers: { "Retry-After": "0" } });
    return fetch(input, init);
  };
  const app = client({ fetch: down, retry: { baseDelayMs: 1 } });
  // points/adjust declares Idempotency-Key: the client adds one and keeps it across attempts.
  await assert.rejects(app.post("/openapi/v2/proxy-user/{userId}/points/adjust", {
    path: { userId: 1 }, proxy: { userId: 1 },
    body: { amount: 1, direction: "ADD", reason: "sdk test" },
  }), (e: unknown) => e instanceof ModhubError && e.is("PROXY_TOKEN_REQUIRED"));
  assert.equal(sent.length, 3);
  const keys = new Set(sent.map((h) => h.get("Idempotency-Key")));
  assert.equal(keys.size, 1);
  assert.match([...keys][0] ?? "", /^[0-9a-f-]{36}$/);

  // A write without an Idempotency-Key is sent once, whatever the answer.
  sent.length = 0;
  await assert.rejects(app.post("/openapi/v2/mods/{postId}/download-failure", {
    path: { postId: 1 }, body: { fingerprint: "0".repeat(64), errorType: "OTHER", count: 1 },
  }), (e: unknown) => e instanceof ModhubError && e.status === 503);
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.get("Idempotency-Key"), null);
});

test("over quota: 429 with RATE_LIMIT_EXCEEDED and Retry-After; a long wait is not slept", async () => {
  const app = quotaClient({ retry: { maxRetryAfterSeconds: 0 } });
  const started = Date.now();
  let refused: ModhubError | undefined;
  for (let i = 0; i < 4 && !refused; i++) {
    await app.get("/openapi/v2/games").catch((e: unknown) => {
      if (!(e instanceof ModhubError)) throw e;
      refused = e;
    });
  }
  assert.ok(refused, "the third request of a minute must be refused");
  assert.equal(refused.status, 429);
  assert.ok(refused.is("RATE_LIMIT_EXCEEDED"), refused.message);
  assert.ok(refused.retryAfter !== null && refused.retryAfter >= 0 && refused.retryAfter <= 60, String(refused.retryAfter));
  assert.ok(Date.now() - started < 5000);
});

test("backoff doubles with jitter, never below Retry-After; Retry-After reads seconds and dates", () => {
  const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
  assert.equal(backoffDelayMs(policy, 0, null, () => 1), 100);
  assert.equal(backoffDelayMs(policy, 2, null, () => 1), 400);
  assert.equal(backoffDelayMs(policy, 2, null, () => 0), 200);
  assert.equal(backoffDelayMs(policy, 9, null, () => 1), 1000);
  assert.equal(backoffDelayMs(policy, 0, 3, () => 1), 3000);
  assert.equal(parseRetryAfterSeconds("7"), 7);
  assert.equal(parseRetryAfterSeconds(new Date(Date.now() + 5000).toUTCString()), 5);
  assert.equal(parseRetryAfterSeconds("soon"), null);
  assert.equal(retryPolicy(false).maxRetries, 0);
});
