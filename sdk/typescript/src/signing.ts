// Request signing: Base64(HMAC-SHA256(secret, METHOD + "\n" + PATH + "\n" + TIMESTAMP)), with
// PATH exactly as sent (no query) and TIMESTAMP in Unix milliseconds (13 digits).
import { subtle, toBase64, utf8 } from "./encoding.js";

/** The string-to-sign of the contract (no trailing line feed). */
export function stringToSign(method: string, path: string, timestamp: string): string {
  return `${method.toUpperCase()}\n${path}\n${timestamp}`;
}

/** A strictly increasing millisecond clock: two requests never share a timestamp, so two signed
 * writes to one path are never refused as a replay (200216). */
export class MonotonicClock {
  private last = 0;
  constructor(private readonly now: () => number = Date.now) {}

  /** The next timestamp: the wall clock, or one more than the previous one. */
  next(): number {
    const value = Math.max(Math.floor(this.now()), this.last + 1);
    this.last = value;
    return value;
  }
}

/** Signs requests with one application's secret key (the HMAC key is imported once). */
export class Signer {
  private key: Promise<CryptoKey> | undefined;

  constructor(private readonly secretKey: string) {}

  /** Base64 HMAC-SHA256 of the string-to-sign. */
  async sign(method: string, path: string, timestamp: string): Promise<string> {
    this.key ??= subtle().importKey("raw", utf8(this.secretKey),
      { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const mac = await subtle().sign("HMAC", await this.key, utf8(stringToSign(method, path, timestamp)));
    return toBase64(mac);
  }

  /** The three signature headers of a request. */
  async headers(apiKey: string, method: string, path: string, timestamp: number): Promise<Record<string, string>> {
    const ts = String(timestamp);
    return { "X-API-Key": apiKey, "X-Timestamp": ts, "X-Signature": await this.sign(method, path, ts) };
  }
}
