// Compile-time checks of the typed calls: `npm run build` fails when a wrong call below (each
// marked as an expected error) compiles, or when a right call does not. Nothing here runs.
import type { ItemOf, Modhub, Schema } from "@modhub/client";

export async function typedCalls(hub: Modhub): Promise<void> {
  const page = await hub.get("/openapi/v2/mods/search", { query: { keyword: "x", pageSize: 20, sort: "downloads" } });
  const total: number = page.total;
  const first: Schema<"ModSummaryVO"> | undefined = page.list[0];
  const file = await hub.get("/openapi/v2/mods/{postId}/files/{fileId}", { path: { postId: 1, fileId: 2 } });
  const sha: string | null | undefined = file.sha256;
  const adjusted = await hub.post("/openapi/v2/proxy-user/{userId}/points/adjust", {
    path: { userId: 1 }, body: { amount: 1, direction: "ADD", reason: "r" }, idempotencyKey: "k-1",
  });
  for await (const comment of hub.items("/openapi/v2/mods/{postId}/comments", { path: { postId: 1 } })) {
    const id: number = comment.commentId;
    void id;
  }
  const item: ItemOf<"/openapi/v2/mods/search"> | undefined = first;
  void [total, sha, adjusted, item];

  // @ts-expect-error a path the contract does not have
  await hub.get("/openapi/v2/no-such-path");
  // @ts-expect-error path parameters are required
  await hub.get("/openapi/v2/mods/{postId}/files");
  // @ts-expect-error pageSize is a number
  await hub.get("/openapi/v2/mods/search", { query: { pageSize: "20" } });
  // @ts-expect-error sort takes the contract's values only
  await hub.get("/openapi/v2/mods/search", { query: { sort: "random" } });
  // @ts-expect-error the body lacks direction and reason
  await hub.post("/openapi/v2/proxy-user/{userId}/points/adjust", { path: { userId: 1 }, body: { amount: 1 } });
  // @ts-expect-error search is not a POST
  await hub.post("/openapi/v2/mods/search");
  // @ts-expect-error a file detail is not paged
  hub.items("/openapi/v2/mods/{postId}/files/{fileId}", { path: { postId: 1, fileId: 2 } });
}
