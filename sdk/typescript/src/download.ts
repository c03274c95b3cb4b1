// Downloads with hash checks (sha1, sha256, sha512 through WebCrypto's digest).
import type { ModhubClient } from "./client.js";
import { HashMismatchError, ModhubError } from "./errors.js";
import { subtle, timingSafeEqual, toHex } from "./encoding.js";

/** The hash algorithms the platform publishes for every stored file. */
export type HashAlgorithm = "sha1" | "sha256" | "sha512";
/** Expected lower-case hex digests; at least one. */
export type ExpectedHashes = Partial<Record<HashAlgorithm, string | null>>;

const SUBTLE_NAME: Record<HashAlgorithm, string> = { sha1: "SHA-1", sha256: "SHA-256", sha512: "SHA-512" };
export const HASH_ALGORITHMS: readonly HashAlgorithm[] = ["sha1", "sha256", "sha512"];

/** Lower-case hex digest of bytes. */
export async function digestHex(algorithm: HashAlgorithm, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(await subtle().digest(SUBTLE_NAME[algorithm], bytes));
}

/** The expected hashes that are given, checked for shape (hex of the right length). */
export function expectedHashes(expected: ExpectedHashes): [HashAlgorithm, string][] {
  const lengths: Record<HashAlgorithm, number> = { sha1: 40, sha256: 64, sha512: 128 };
  const given = HASH_ALGORITHMS.flatMap((a) => (expected[a] ? [[a, expected[a]!.toLowerCase()] as [HashAlgorithm, string]] : []));
  if (given.length === 0) throw new TypeError("no expected hash: give sha1, sha256 or sha512");
  for (const [algorithm, hex] of given) {
    if (!new RegExp(`^[0-9a-f]{${lengths[algorithm]}}$`).test(hex)) throw new TypeError(`malformed expected ${algorithm}`);
  }
  return given;
}

/** Check bytes against every expected hash; resolves to the computed digests, throws
 * HashMismatchError on the first difference. */
export async function verifyHashes(bytes: Uint8Array<ArrayBuffer>, expected: ExpectedHashes): Promise<Partial<Record<HashAlgorithm, string>>> {
  const computed: Partial<Record<HashAlgorithm, string>> = {};
  for (const [algorithm, hex] of expectedHashes(expected)) {
    const actual = await digestHex(algorithm, bytes);
    computed[algorithm] = actual;
    if (!timingSafeEqual(actual, hex)) throw new HashMismatchError(algorithm, hex, actual);
  }
  return computed;
}

/** What to download: a file of a resource (through download-file), or a link the API gave
 * (install-info's downloadUrl, download-auth's URL; relative links are the server's). */
export type DownloadSource = { postId: number | string; fileId: number | string } | string;

/** A verified download. */
export interface Downloaded {
  bytes: Uint8Array<ArrayBuffer>;
  /** The digests computed (those that were expected). */
  hashes: Partial<Record<HashAlgorithm, string>>;
  /** The final URL the bytes came from. */
  url: string;
  contentType: string | null;
}

/** Open a download: the body stream of the file. download-file is signed and its redirect (an
 * object store's presigned URL) is followed without the application's headers. */
export async function openDownload(client: ModhubClient, source: DownloadSource, signal?: AbortSignal): Promise<Response> {
  const path = typeof source === "string" ? source : "/openapi/v2/mods/{postId}/files/{fileId}/download-file";
  const params = typeof source === "string" ? undefined : { postId: String(source.postId), fileId: String(source.fileId) };
  let response = await client.send("GET", path, { path: params, redirect: "manual", signal });
  if (response.type === "opaqueredirect") {
    // a browser hides manual redirects: follow them (fetch drops no header then; same origin only)
    response = await client.send("GET", path, { path: params, redirect: "follow", signal });
  }
  for (let hops = 0; response.status >= 300 && response.status < 400; hops++) {
    const location = response.headers.get("Location");
    if (!location || hops >= 5) break;
    await response.body?.cancel();
    const next = new URL(location, response.url || client.baseUrl + "/");
    response = await client.send("GET", next.toString(), { signed: false, redirect: "manual", signal });
  }
  if (!response.ok) throw await ModhubError.fromResponse(response, "GET", new URL(response.url || client.baseUrl).pathname);
  return response;
}

/** Download into memory and check the expected hashes (HashMismatchError on a difference). */
export async function download(client: ModhubClient, source: DownloadSource, expected: ExpectedHashes,
  signal?: AbortSignal): Promise<Downloaded> {
  expectedHashes(expected);
  const response = await openDownload(client, source, signal);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const hashes = await verifyHashes(bytes, expected);
  return { bytes, hashes, url: response.url, contentType: response.headers.get("Content-Type") };
}
