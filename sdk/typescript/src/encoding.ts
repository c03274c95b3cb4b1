// Byte helpers over the platform's own primitives (TextEncoder, btoa/atob): the same in Node 18+
// and in browsers.

const encoder = new TextEncoder();

/** UTF-8 bytes of a string; bytes are passed through. */
export function utf8(value: string | Uint8Array | ArrayBuffer): Uint8Array<ArrayBuffer> {
  if (typeof value === "string") return encoder.encode(value);
  return value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value);
}

/** Lower-case hexadecimal of bytes. */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = "";
  for (const byte of view) out += byte.toString(16).padStart(2, "0");
  return out;
}

/** Standard Base64 of bytes. */
export function toBase64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = "";
  for (let i = 0; i < view.length; i += 0x8000) {
    binary += String.fromCharCode(...view.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Bytes of standard or URL-safe Base64 (whitespace ignored); throws on anything else. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/");
  const padded = clean + "=".repeat((4 - (clean.length % 4)) % 4);
  const binary = atob(padded);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Constant-time equality of two strings (time depends on the length only). */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false; // lengths are public (hex of a known digest)
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** WebCrypto's SubtleCrypto (globalThis.crypto.subtle: Node 18+, browsers in secure contexts). */
export function subtle(): SubtleCrypto {
  const found = globalThis.crypto?.subtle;
  if (!found) throw new Error("WebCrypto (globalThis.crypto.subtle) is not available here");
  return found;
}
