// Page iterators over a live catalogue.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./live.js";

test("pages() walks a search page by page until hasMore is false", async () => {
  const app = client();
  const first = await app.get("/openapi/v2/mods/search", { query: { pageSize: 40 } });
  assert.ok(first.total > 40, "the demo catalogue has more than one page");
  const pages = [];
  for await (const page of app.pages("/openapi/v2/mods/search", { query: { pageSize: 40 } })) pages.push(page);
  assert.equal(pages.length, Math.ceil(first.total / 40));
  assert.deepEqual(pages.map((p) => p.pageNum), pages.map((_, i) => i + 1));
  assert.equal(pages.at(-1)!.hasMore, false);
  const ids = pages.flatMap((p) => p.list.map((r) => r.postId));
  assert.equal(ids.length, first.total);
  assert.equal(new Set(ids).size, ids.length);
});

test("items() yields records across pages, from a given pageNum, and stops early on break", async () => {
  const app = client();
  const total = (await app.get("/openapi/v2/mods/search", { query: { pageSize: 1 } })).total;
  let count = 0;
  for await (const resource of app.items("/openapi/v2/mods/search", { query: { pageSize: 50, pageNum: 2 } })) {
    assert.equal(typeof resource.mainName, "string");
    count++;
  }
  assert.equal(count, total - 50);
  let taken = 0;
  for await (const _ of app.items("/openapi/v2/mods/search", { query: { pageSize: 5 } })) if (++taken === 7) break;
  assert.equal(taken, 7);
});

test("items() over comments of a resource", async () => {
  const app = client();
  let withComments;
  for await (const resource of app.items("/openapi/v2/mods/search", { query: { pageSize: 100 } })) {
    if ((resource.commentCount ?? 0) > 2) {
      withComments = resource;
      break;
    }
  }
  assert.ok(withComments, "the demo catalogue has comments");
  const comments = [];
  for await (const c of app.items("/openapi/v2/mods/{postId}/comments", { path: { postId: withComments.postId }, query: { pageSize: 2 } })) {
    comments.push(c);
  }
  assert.equal(comments.length, new Set(comments.map((c) => c.commentId)).size);
  assert.ok(comments.length > 2);
});
