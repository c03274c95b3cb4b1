// The sync walker: reads the change feed (GET /openapi/v2/mods/sync) batch after batch, yields
// changes and tombstones, and keeps the cursor of the last batch the caller has processed.
import type { ModhubClient } from "./client.js";
import type { CallOptions, Schema } from "./types.js";

/** One batch of the feed. */
export type SyncBatch = Schema<"ResourceSyncVO">;
/** A record of the feed. */
export type SyncItem = Schema<"ModSummaryVO">;

/** One change: a resource to upsert (by postId) or a resource to remove. */
export type SyncChange =
  | { kind: "upsert"; postId: number; item: SyncItem }
  | { kind: "delete"; postId: number };

/** Where a walk starts and how it reports its cursor. */
export interface SyncOptions extends Pick<CallOptions, "signal"> {
  /** The nextCursor kept from an earlier walk; absent: from the earliest change. */
  cursor?: string;
  /** Items per call (1 to 200; the server's default is 100). */
  size?: number;
  /** Called with the new cursor once a batch has been processed: persist it there. */
  onCursor?: (cursor: string) => void | Promise<void>;
}

/** Walks the feed until hasMore is false; walk again later with the kept cursor. */
export class SyncWalker {
  /** The cursor after the last batch fully processed by the caller (undefined: none yet). */
  cursor: string | undefined;

  constructor(private readonly client: ModhubClient, private readonly options: SyncOptions = {}) {
    this.cursor = options.cursor;
  }

  /** The batches, one call each. The cursor moves on when the caller asks for the next batch
   * (so a batch whose processing failed is read again by the next walk). */
  async *batches(): AsyncGenerator<SyncBatch> {
    for (;;) {
      const query: { cursor?: string; size?: number } = {};
      if (this.cursor) query.cursor = this.cursor;
      if (this.options.size !== undefined) query.size = this.options.size;
      const batch = await this.client.get("/openapi/v2/mods/sync", { query, signal: this.options.signal });
      yield batch;
      // The contract's end of a walk is hasMore=false; nextCursor is never empty, keep it.
      if (batch.nextCursor) {
        this.cursor = batch.nextCursor;
        await this.options.onCursor?.(batch.nextCursor);
      }
      if (batch.hasMore !== true) return;
    }
  }

  /** Every change of the walk: each batch's items (upserts), then its tombstones (deletes). */
  async *changes(): AsyncGenerator<SyncChange> {
    for await (const batch of this.batches()) {
      // The contract declares every field of ResourceSyncVO optional and nullable.
      for (const item of batch.items ?? []) yield { kind: "upsert", postId: item.postId, item };
      for (const postId of batch.deletedPostIds ?? []) yield { kind: "delete", postId };
    }
  }
}
