// @modhub/client/node: everything of @modhub/client, WebCrypto made global on Node 18, and
// downloads streamed to disk with sha1/sha256/sha512 computed on the way
// (node:crypto), written to a temporary file and renamed only when every hash matches.
import { createHash, webcrypto, type Hash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ModhubClient } from "./client.js";
import { expectedHashes, openDownload, type DownloadSource, type ExpectedHashes, type HashAlgorithm } from "./download.js";
import { HashMismatchError } from "./errors.js";
import { timingSafeEqual } from "./encoding.js";

// Node 18 has WebCrypto as node:crypto's webcrypto but not always as globalThis.crypto (it is
// global from Node 19 on): the core reads globalThis.crypto.
if (!globalThis.crypto?.subtle) {
  Object.defineProperty(globalThis, "crypto", { value: webcrypto, configurable: true, writable: true });
}

/** A verified file on disk. */
export interface SavedFile {
  path: string;
  size: number;
  hashes: Partial<Record<HashAlgorithm, string>>;
}

/** Stream a download to `destination` (through `destination + ".part"`), checking the expected
 * hashes; on a mismatch nothing is left at `destination` and HashMismatchError is thrown. */
export async function downloadToFile(client: ModhubClient, source: DownloadSource, destination: string,
  expected: ExpectedHashes, signal?: AbortSignal): Promise<SavedFile> {
  const wanted = expectedHashes(expected);
  const response = await openDownload(client, source, signal);
  const hashers = new Map<HashAlgorithm, Hash>(wanted.map(([algorithm]) => [algorithm, createHash(algorithm)]));
  const part = `${destination}.part`;
  let size = 0;
  try {
    const body = Readable.fromWeb(response.body! as import("node:stream/web").ReadableStream<Uint8Array>);
    body.on("data", (chunk: Buffer) => {
      size += chunk.length;
      for (const hasher of hashers.values()) hasher.update(chunk);
    });
    await pipeline(body, createWriteStream(part), { signal });
    const hashes: Partial<Record<HashAlgorithm, string>> = {};
    for (const [algorithm, hex] of wanted) {
      const actual = hashers.get(algorithm)!.digest("hex");
      hashes[algorithm] = actual;
      if (!timingSafeEqual(actual, hex)) throw new HashMismatchError(algorithm, hex, actual);
    }
    await rename(part, destination);
    return { path: destination, size, hashes };
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
}

export * from "./index.js";
