// Signing against the live server: the string-to-sign, the path exactly as sent, monotonic
// timestamps, proxy-user headers.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { test } from "node:test";
import { ModhubError, MonotonicClock, Signer, stringToSign } from "@modhub/client";
import { baseUrl, client } from "./live.js";

test("the signature is Base64 HMAC-SHA256 over METHOD\\nPATH\\nTIMESTAMP", async () => {
  const signed = await new Signer("s3cret").sign("get", "/openapi/v2/mods/search", "1700000000000");
  const reference = createHmac("sha256", "s3cret").update("GET\n/openapi/v2/mods/search\n1700000000000").digest("base64");
  assert.equal(signed, reference);
  assert.equal(stringToSign("post", "/p", "1"), "POST\n/p\n1");
});

test("timestamps are milliseconds and strictly increasing, also when the clock stands still", () => {
  const clock = new MonotonicClock(() => 1_700_000_000_000);
  assert.deepEqual([clock.next(), clock.next(), clock.next()], [1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_002]);
  const real = new MonotonicClock();
  assert.match(String(real.next()), /^\d{13}$/);
});

test("a signed read round-trips; the answer's traceId is its X-Request-Id", async () => {
  const result = await client().call("get", "/openapi/v2/games");
  assert.equal(result.status, 200);
  assert.ok(Array.isArray(result.data) && result.data.length > 0);
  assert.equal(result.traceId, result.headers.get("X-Request-Id"));
  assert.ok(Number(result.headers.get("X-RateLimit-Remaining")) >= 0);
});

test("the signed path is the path as sent: percent-encoded parameters pass the signature", async () => {
  // The server checks the signature first (200208), then the parameter's pattern (200301).
  const error = await client().get("/openapi/v2/games/{sectionCode}", { path: { sectionCode: "我 x" } })
    .then(() => assert.fail("expected a refusal"), (e: unknown) => e);
  assert.ok(error instanceof ModhubError);
  assert.equal(error.code, 200301, error.message);
});

test("a wrong secret is refused with SIGNATURE_INVALID", async () => {
  const wrong = client({ secretKey: "not-the-secret" });
  await assert.rejects(wrong.get("/openapi/v2/games"), (e: unknown) =>
    e instanceof ModhubError && e.code === 200208 && e.status === 401 && e.is("SIGNATURE_INVALID"));
});

test("proxy-user headers: required on P operations, sent from the client or the call", async () => {
  const app = client();
  const [resource] = (await app.get("/openapi/v2/mods/search", { query: { pageSize: 1 } })).list;
  const userId = resource!.authors![0]!.userId;
  const unread = "/openapi/v2/community/notifications/unread-count";
  await assert.rejects(app.get(unread), (e: unknown) => e instanceof ModhubError && e.is("PROXY_USER_REQUIRED"));
  const count = await app.asUser({ userId }).get(unread);
  assert.equal(typeof count, "number");
  assert.deepEqual(await app.get(unread, { proxy: { userId } }), count);
  await assert.rejects(app.asUser({ userId }).get(unread, { proxy: false }), (e: unknown) => e instanceof ModhubError && e.is("PROXY_USER_REQUIRED"));
  await assert.rejects(app.get(unread, { proxy: { userId: "9000000000000000000" } }),
    (e: unknown) => e instanceof ModhubError && e.is("PROXY_USER_INVALID"));
  assert.throws(() => app.asUser({ userId: "1\u00b9" }), TypeError); // never a raw byte in the header
});

test("an anonymous operation is sent unsigned", async () => {
  const bare = new (await import("@modhub/client")).Modhub({ baseUrl });
  const document = await bare.get("/openapi/v2/meta/openapi.json");
  assert.equal((document as { info: { version: string } }).info.version, (await import("@modhub/client")).CONTRACT_VERSION);
});

test("conditional GET: the ETag sent back as ifNoneMatch answers 304 with notModified", async () => {
  const app = client();
  const first = await app.call("get", "/openapi/v2/mods/{postId}", { path: { postId: 1 } });
  assert.ok(first.etag, "resource detail carries an ETag");
  assert.equal(first.data.postId, 1);
  const again = await app.call("get", "/openapi/v2/mods/{postId}", { path: { postId: 1 }, ifNoneMatch: first.etag });
  assert.equal(again.status, 304);
  assert.equal(again.notModified, true);
  assert.equal(again.data, undefined);
});
