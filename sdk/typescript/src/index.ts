// @modhub/client: the official TypeScript client of the modhub Open API (ESM; Node 18+ and
// browsers: fetch and WebCrypto only).
import { ModhubClient } from "./client.js";
import { download, type DownloadSource, type Downloaded, type ExpectedHashes } from "./download.js";
import { fetchInstallKeys, verifyInstallInfo, type InstallKeySet, type VerifiedInstallInfo } from "./install.js";
import { SyncWalker, type SyncOptions } from "./sync.js";

export { ModhubClient, expandPath, findOperation, readEnvelope } from "./client.js";
export type { ClientOptions, RequestOptions } from "./client.js";
export { ModhubError, HashMismatchError, InstallSignatureError, WebhookVerificationError, parseRetryAfterSeconds } from "./errors.js";
export type { ErrorName, WebhookFailure } from "./errors.js";
export { CONTRACT_VERSION, ERROR_CODES, OPERATIONS } from "./generated/operations.js";
export type { Access, OperationInfo } from "./generated/operations.js";
export { MonotonicClock, Signer, stringToSign } from "./signing.js";
export { backoffDelayMs, retryPolicy } from "./retry.js";
export type { RetryOptions, RetryPolicy } from "./retry.js";
export { SyncWalker } from "./sync.js";
export type { SyncBatch, SyncChange, SyncItem, SyncOptions } from "./sync.js";
export { HASH_ALGORITHMS, digestHex, download, openDownload, verifyHashes } from "./download.js";
export type { DownloadSource, Downloaded, ExpectedHashes, HashAlgorithm } from "./download.js";
export { INSTALL_KEYS_PATH, InstallKeySet, fetchInstallKeys, keyIdOf, verifyInstallInfo } from "./install.js";
export type { InstallKey, InstallScript, InstallScriptShape, InstallStep, Jwk, VerifiedInstallInfo } from "./install.js";
export {
  MemoryReplayStore, WEBHOOK_TOLERANCE_SECONDS, WebhookReceiver, checkWebhookSignature, verifyWebhookSignature,
  webhookSignature,
} from "./webhooks.js";
export type { ReplayStore, WebhookCheckOptions, WebhookEvent, WebhookReceiverOptions } from "./webhooks.js";
export type * from "./types.js";

/** The client with the workflow helpers: sync walks, verified downloads and install info. */
export class Modhub extends ModhubClient {
  private keySet: Promise<InstallKeySet> | undefined;

  /** A walker over the change feed from `options.cursor`. */
  sync(options: SyncOptions = {}): SyncWalker {
    return new SyncWalker(this, options);
  }

  /** Download into memory, checking the expected hashes (HashMismatchError otherwise). */
  download(source: DownloadSource, expected: ExpectedHashes, signal?: AbortSignal): Promise<Downloaded> {
    return download(this, source, expected, signal);
  }

  /** Download a resource's file, checked against the sha1, sha256 and sha512 of its record. */
  async downloadFile(postId: number, fileId: number, signal?: AbortSignal): Promise<Downloaded> {
    const file = await this.get("/openapi/v2/mods/{postId}/files/{fileId}", { path: { postId, fileId }, signal });
    const expected: ExpectedHashes = { ...file.hashes };
    expected.sha256 ??= file.sha256 ?? file.fingerprint ?? null;
    if (!expected.sha1 && !expected.sha256 && !expected.sha512) {
      throw new TypeError(`file ${fileId} of resource ${postId} publishes no hash (storageType ${file.storageType}): it is not stored on the platform`);
    }
    return download(this, { postId, fileId }, expected, signal);
  }

  /** The published install-key set (read once; read again when a signature names a new kid). */
  installKeys(refresh = false): Promise<InstallKeySet> {
    if (refresh || !this.keySet) {
      this.keySet = fetchInstallKeys(this);
      this.keySet.catch(() => (this.keySet = undefined));
    }
    return this.keySet;
  }

  /** Install info of a resource with its script's signature verified (InstallSignatureError). */
  async installInfo(postId: number, signal?: AbortSignal): Promise<VerifiedInstallInfo> {
    const info = await this.get("/openapi/v2/mods/{postId}/install-info", { path: { postId }, signal });
    return verifyInstallInfo(info, await this.installKeys(), () => this.installKeys(true));
  }
}
