// The live server of the tests (started by scripts/live-server.mjs) and the clients that use it.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Modhub, type ClientOptions } from "@modhub/client";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests with npm test (scripts/live-server.mjs)`);
  return value;
}

export const baseUrl = required("MODHUB_SDK_BASE_URL");
export const apiKey = required("MODHUB_SDK_API_KEY");
export const secretKey = required("MODHUB_SDK_SECRET_KEY");
export const appId = required("MODHUB_SDK_APP_ID");
export const dataDir = required("MODHUB_SDK_DATA_DIR");

/** A client of the test application (1000 requests a minute). */
export function client(options: Partial<ClientOptions> = {}): Modhub {
  return new Modhub({ baseUrl, apiKey, secretKey, ...options });
}

/** A client of the application allowed 2 requests a minute. */
export function quotaClient(options: Partial<ClientOptions> = {}): Modhub {
  return new Modhub({
    baseUrl, apiKey: required("MODHUB_SDK_QUOTA_API_KEY"), secretKey: required("MODHUB_SDK_QUOTA_SECRET_KEY"), ...options,
  });
}

const run = promisify(execFile);

/** Run the modhub CLI against the server's data folder; resolves to its standard output. */
export async function cli(...args: string[]): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("MODHUB_")));
  // the server's own settings (MODHUB_SDK_SERVER_X is its MODHUB_X: PostgreSQL and Redis in CI)
  const server = Object.fromEntries(
    Object.entries(process.env)
      .filter(([k]) => k.startsWith("MODHUB_SDK_SERVER_"))
      .map(([k, v]) => ["MODHUB_" + k.slice("MODHUB_SDK_SERVER_".length), v]),
  );
  const { stdout } = await run(required("MODHUB_SDK_CLI"), args, {
    cwd: dataDir, env: { ...env, MODHUB_WEBHOOK_ALLOW_PRIVATE: "1", ...server },
  });
  return stdout;
}
