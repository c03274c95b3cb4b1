// The sync walker and the webhook receiver, against one change made on the live server: a
// resource deleted by the operator's CLI is a tombstone of the feed and a signed resource.deleted
// delivery to a local receiver.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { WebhookReceiver, WebhookVerificationError, webhookSignature, type SyncChange } from "@modhub/client";
import { appId, cli, client } from "./live.js";

interface Delivery { headers: IncomingMessage["headers"]; body: Buffer }

const deliveries: Delivery[] = [];
let waiting: (() => void) | undefined;
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (c: Buffer) => chunks.push(c));
  request.on("end", () => {
    deliveries.push({ headers: request.headers, body: Buffer.concat(chunks) });
    response.writeHead(204).end();
    waiting?.();
  });
});
let secret = "";
let firstCursor: string | undefined;
let known = new Set<number>();

before(async () => {
  await new Promise<void>((ok) => receiver.listen(0, "127.0.0.1", ok));
  const { port } = receiver.address() as AddressInfo;
  const added = JSON.parse(await cli("webhook", "add", "--app", appId, "--url", `http://127.0.0.1:${port}/hook`,
    "--event", "resource.deleted")) as { secret: string };
  secret = added.secret;
});

after(() => receiver.close());

test("a first walk reads the whole catalogue, keeps the cursor and ends on hasMore=false", async () => {
  const app = client();
  const cursors: string[] = [];
  const walker = app.sync({ size: 70, onCursor: (c) => void cursors.push(c) });
  const changes: SyncChange[] = [];
  let batches = 0;
  for await (const batch of walker.batches()) {
    batches++;
    for (const item of batch.items ?? []) changes.push({ kind: "upsert", postId: item.postId, item });
  }
  const total = (await app.get("/openapi/v2/mods/search", { query: { pageSize: 1 } })).total;
  known = new Set(changes.map((c) => c.postId));
  assert.equal(known.size, total);
  assert.ok(batches >= Math.ceil(total / 70));
  assert.equal(cursors.length, batches);
  assert.equal(walker.cursor, cursors.at(-1));
  firstCursor = walker.cursor;

  // From the kept cursor, nothing new: one call, no change, the same kind of cursor back.
  const again = app.sync({ cursor: firstCursor });
  const none: SyncChange[] = [];
  for await (const change of again.changes()) none.push(change);
  assert.deepEqual(none, []);
  assert.ok(again.cursor);
});

test("a deletion is a tombstone of the next walk and a verified resource.deleted webhook", async () => {
  assert.ok(firstCursor, "runs after the first walk");
  const victim = [...known].sort((a, b) => b - a)[0]!;
  const delivered = new Promise<void>((ok) => (waiting = ok));
  await cli("admin", "resource", "delete", String(victim));

  const walker = client().sync({ cursor: firstCursor });
  const changes: SyncChange[] = [];
  for await (const change of walker.changes()) changes.push(change);
  assert.deepEqual(changes, [{ kind: "delete", postId: victim }]);
  assert.notEqual(walker.cursor, firstCursor);

  let deadline: NodeJS.Timeout | undefined; // cleared: a pending timer would keep the file's process 15 s
  await Promise.race([delivered, new Promise((_, fail) => (deadline = setTimeout(() => fail(new Error("no delivery in 15 s")), 15_000)))])
    .finally(() => clearTimeout(deadline));
  const { headers, body } = deliveries[0]!;
  const hooks = new WebhookReceiver({ secrets: secret });
  const event = await hooks.verify<{ postId: number }>(headers, body);
  assert.equal(event.event, "resource.deleted");
  assert.equal(event.data.postId, victim);
  assert.equal(event.id, headers["x-webhook-id"]);

  // The same delivery again is a replay; released (processing failed), it is accepted again.
  await assert.rejects(hooks.verify(headers, body), (e: unknown) => e instanceof WebhookVerificationError && e.reason === "replay");
  await hooks.release(event.id);
  assert.equal((await hooks.verify(headers, body)).id, event.id);

  // A changed body, another secret, a stale clock: refused.
  const tampered = Buffer.from(body.toString("utf8").replace(`"postId":${victim}`, `"postId":${victim + 1}`));
  assert.notDeepEqual(tampered, body);
  const fresh = () => new WebhookReceiver({ secrets: secret });
  await assert.rejects(fresh().verify(headers, tampered), (e: unknown) => e instanceof WebhookVerificationError && e.reason === "signature");
  await assert.rejects(new WebhookReceiver({ secrets: "other" }).verify(headers, body),
    (e: unknown) => e instanceof WebhookVerificationError && e.reason === "signature");
  const late = new WebhookReceiver({ secrets: secret, clock: () => Number(headers["x-webhook-timestamp"]) + 301_000 });
  await assert.rejects(late.verify(headers, body), (e: unknown) => e instanceof WebhookVerificationError && e.reason === "timestamp");
  const early = new WebhookReceiver({ secrets: secret, clock: () => Number(headers["x-webhook-timestamp"]) - 299_000 });
  assert.equal((await early.verify(headers, body)).id, event.id);
});

test("during a secret rotation the header carries two signatures; either secret verifies", async () => {
  const body = '{"event":"resource.updated","data":{"postId":1}}';
  const timestamp = String(Date.now());
  const header = `${await webhookSignature("new-secret", timestamp, body)},${await webhookSignature("old-secret", timestamp, body)}`;
  let n = 0;
  const headers = () => ({ "X-Webhook-Id": `id-${n++}`, "X-Webhook-Timestamp": timestamp, "X-Webhook-Signature": header });
  for (const secrets of ["new-secret", "old-secret", ["unrelated", "old-secret"]]) {
    assert.equal((await new WebhookReceiver({ secrets }).verify(headers(), body)).event, "resource.updated");
  }
  await assert.rejects(new WebhookReceiver({ secrets: "unrelated" }).verify(headers(), body), WebhookVerificationError);
  const request = new Request("http://receiver/hook", { method: "POST", headers: headers(), body });
  assert.equal((await new WebhookReceiver({ secrets: "old-secret" }).verifyRequest(request)).data.postId, 1);
});
