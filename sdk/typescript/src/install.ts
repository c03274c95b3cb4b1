// Install-script signatures: RSA-SHA256 PKCS#1 v1.5 (Base64) over the exact UTF-8 bytes of the
// script, verified against the published key set. The key set is read from the PEM bundle the
// server publishes today (`# <kid> <status>` lines before each key) or from a JSON Web Key Set.
import type { ModhubClient } from "./client.js";
import { InstallSignatureError, ModhubError } from "./errors.js";
import { fromBase64, subtle, toHex, utf8 } from "./encoding.js";
import { OPERATIONS } from "./generated/operations.js";
import type { components, Schema } from "./types.js";

const RSA = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

/** One published public key. */
export interface InstallKey {
  /** First 16 hex digits of the sha256 of the DER public key. */
  kid: string;
  /** CURRENT, PREVIOUS, or null when the publication does not say. */
  status: string | null;
  key: CryptoKey;
}

/** A JSON Web Key of the set (RSA public keys only are used). */
export interface Jwk {
  kty: string;
  kid?: string;
  n?: string;
  e?: string;
  use?: string;
  alg?: string;
  status?: string;
  [extra: string]: unknown;
}

/** The kid of a DER SubjectPublicKeyInfo: first 16 hex digits of its sha256. */
export async function keyIdOf(spki: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(await subtle().digest("SHA-256", spki)).slice(0, 16);
}

async function fromSpki(der: Uint8Array<ArrayBuffer>, kid: string | null, status: string | null): Promise<InstallKey> {
  const computed = await keyIdOf(der);
  if (kid !== null && kid !== computed) throw new Error(`key published as ${kid} has kid ${computed}`);
  return { kid: computed, status, key: await subtle().importKey("spki", der, RSA, false, ["verify"]) };
}

async function fromJwk(jwk: Jwk): Promise<InstallKey | null> {
  if (jwk.kty !== "RSA" || (jwk.use !== undefined && jwk.use !== "sig") || (jwk.alg !== undefined && jwk.alg !== "RS256")) {
    return null; // not an install-script key
  }
  const { kty, n, e } = jwk;
  const key = await subtle().importKey("jwk", { kty, n, e, alg: "RS256", ext: true }, RSA, true, ["verify"]);
  const kid = await keyIdOf(await subtle().exportKey("spki", key));
  if (jwk.kid !== undefined && jwk.kid !== kid) throw new Error(`key published as ${jwk.kid} has kid ${kid}`);
  return { kid, status: typeof jwk.status === "string" ? jwk.status : null, key };
}

/** The published install keys, by kid. */
export class InstallKeySet {
  private constructor(readonly keys: ReadonlyMap<string, InstallKey>) {}

  /** Parse a publication: a JWKS (JSON object or text) or a PEM bundle. */
  static async parse(publication: string | { keys: Jwk[] }): Promise<InstallKeySet> {
    if (typeof publication !== "string") return InstallKeySet.fromJwks(publication);
    const text = publication.trim();
    return text.startsWith("{") ? InstallKeySet.fromJwks(JSON.parse(text) as { keys: Jwk[] }) : InstallKeySet.fromPem(text);
  }

  /** The PEM bundle: PUBLIC KEY blocks, each optionally after a `# <kid> <status>` line. */
  static async fromPem(bundle: string): Promise<InstallKeySet> {
    const keys = new Map<string, InstallKey>();
    let label: { kid: string; status: string | null } | null = null;
    const lines = bundle.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      const comment = /^#\s*([0-9a-f]{16})(?:\s+(\S+))?/i.exec(line);
      if (comment) label = { kid: comment[1]!.toLowerCase(), status: comment[2] ?? null };
      if (line !== "-----BEGIN PUBLIC KEY-----") continue;
      const end = lines.indexOf("-----END PUBLIC KEY-----", i);
      if (end < 0) throw new Error("unterminated PUBLIC KEY block");
      const der = fromBase64(lines.slice(i + 1, end).join(""));
      const key = await fromSpki(der, label?.kid ?? null, label?.status ?? null);
      keys.set(key.kid, key);
      label = null;
      i = end;
    }
    if (keys.size === 0) throw new Error("no public key in the PEM bundle");
    return new InstallKeySet(keys);
  }

  /** A JSON Web Key Set ({keys: [{kty, kid, n, e, use, alg}]}). A set whose keys carry no
   * status lists the current key first, then the previous ones still published. */
  static async fromJwks(jwks: { keys: Jwk[] }): Promise<InstallKeySet> {
    const keys = new Map<string, InstallKey>();
    const ordered = !(jwks.keys ?? []).some((jwk) => typeof jwk.status === "string");
    for (const jwk of jwks.keys ?? []) {
      const key = await fromJwk(jwk);
      if (key && ordered) key.status = keys.size === 0 ? "CURRENT" : "PREVIOUS";
      if (key) keys.set(key.kid, key);
    }
    if (keys.size === 0) throw new Error("no RSA signing key in the JWKS");
    return new InstallKeySet(keys);
  }

  /** True when the signature (Base64) of the script verifies with the key `kid` (or, without a
   * kid, with any key of the set). */
  async verify(script: string, signature: string, kid?: string | null): Promise<boolean> {
    return (await this.signer(script, signature, kid)) !== null;
  }

  /** The kid of the key that verifies the signature, or null. */
  async signer(script: string, signature: string, kid?: string | null): Promise<string | null> {
    const candidates = kid ? [this.keys.get(kid)].filter((k): k is InstallKey => k !== undefined) : [...this.keys.values()];
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = fromBase64(signature);
    } catch {
      return null;
    }
    for (const candidate of candidates) {
      if (await subtle().verify(RSA, candidate.key, bytes, utf8(script))) return candidate.kid;
    }
    return null;
  }
}

/** A step of an install script (the shape the server signs today). */
export interface InstallStep {
  action: string;
  from?: string;
  to?: string;
  [field: string]: unknown;
}

/** An install script as the server signs it today ({source, summary, steps}). */
export interface InstallScriptShape {
  source?: string;
  summary?: string;
  steps: InstallStep[];
  [field: string]: unknown;
}

type GeneratedInstallScript = components["schemas"] extends { InstallScript: infer S } ? S : never;

/** A parsed install script: the contract's InstallScript schema once the contract has one
 * (after `npm run generate`), the shape above until then. */
export type InstallScript = [GeneratedInstallScript] extends [never] ? InstallScriptShape : GeneratedInstallScript;

/** Install info whose script signature has been verified. */
export interface VerifiedInstallInfo {
  info: Schema<"OpenApiInstallInfoVo">;
  /** The script, parsed from the exact bytes that were verified. */
  script: InstallScript;
  keyId: string;
}

/** Where the key set is published (Access A): the PEM bundle, served today. */
export const INSTALL_KEYS_PATH = "/openapi/v2/meta/install-signing-key";
/** The JSON Web Key Set's operation, read first when the contract has it. */
const JWKS_OPERATION = OPERATIONS.find((op) => op.operationId === "getInstallSigningJwks");

/** Fetch and parse the published key set: the JWKS when the contract publishes one (a server
 * without it answers 404 and the PEM bundle is read), else the PEM bundle; or `path`. */
export async function fetchInstallKeys(client: ModhubClient, path?: string): Promise<InstallKeySet> {
  const paths = path ? [path] : [...(JWKS_OPERATION ? [JWKS_OPERATION.path] : []), INSTALL_KEYS_PATH];
  for (const [i, candidate] of paths.entries()) {
    const response = await client.send("GET", candidate, {
      signed: false, headers: { Accept: "application/jwk-set+json, application/json;q=0.9, application/x-pem-file;q=0.8" },
    });
    if (response.status === 404 && i < paths.length - 1) {
      await response.body?.cancel();
      continue;
    }
    if (!response.ok) throw await ModhubError.fromResponse(response, "GET", candidate);
    return InstallKeySet.parse(await response.text());
  }
  throw new Error("no install key path");
}

/** Check the script of install info against the key set; an unknown kid makes `refresh` fetch
 * the set again once (the key was rotated since it was read). Throws InstallSignatureError. */
export async function verifyInstallInfo(info: Schema<"OpenApiInstallInfoVo">, keys: InstallKeySet,
  refresh?: () => Promise<InstallKeySet>): Promise<VerifiedInstallInfo> {
  const { script, scriptSignature, scriptKeyId } = info;
  if (!script || !scriptSignature) throw new InstallSignatureError(`resource ${info.postId} has no signed install script`, scriptKeyId ?? null);
  let set = keys;
  if (scriptKeyId && !set.keys.has(scriptKeyId) && refresh) set = await refresh();
  if (scriptKeyId && !set.keys.has(scriptKeyId)) {
    throw new InstallSignatureError(`install script signed with unpublished key ${scriptKeyId}`, scriptKeyId);
  }
  const kid = await set.signer(script, scriptSignature, scriptKeyId);
  if (kid === null) {
    throw new InstallSignatureError(`install script of resource ${info.postId} does not match its signature`, scriptKeyId ?? null);
  }
  return { info, script: JSON.parse(script) as InstallScript, keyId: kid };
}
