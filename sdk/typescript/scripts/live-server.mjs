// Runs a command against a live modhub server: `node scripts/live-server.mjs CMD ARGS...`.
//
// With MODHUB_SDK_BASE_URL set, the command runs against that server as it is (the variables
// below must then be set by hand). Otherwise this starts the embedded server (`modhub run`, the
// repository's .venv unless MODHUB_BIN names another) in a temporary data folder on a free port,
// registers the test applications with the CLI, runs the command with
//   MODHUB_SDK_BASE_URL, MODHUB_SDK_API_KEY, MODHUB_SDK_SECRET_KEY, MODHUB_SDK_APP_ID,
//   MODHUB_SDK_QUOTA_API_KEY, MODHUB_SDK_QUOTA_SECRET_KEY (an application allowed 2 requests a
//   minute), MODHUB_SDK_CLI (the modhub command) and MODHUB_SDK_DATA_DIR (its working folder),
// then stops the server and removes the folder. The exit status is the command's.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node scripts/live-server.mjs COMMAND [ARGS...]");
  process.exit(2);
}

/** The environment of the modhub processes: the caller's, without its MODHUB_ settings. */
function serverEnv() {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("MODHUB_")));
  // MODHUB_SDK_SERVER_X=value becomes the server's MODHUB_X=value (CI: PostgreSQL and Redis)
  const chosen = Object.fromEntries(
    Object.entries(process.env)
      .filter(([k]) => k.startsWith("MODHUB_SDK_SERVER_"))
      .map(([k, v]) => ["MODHUB_" + k.slice("MODHUB_SDK_SERVER_".length), v]),
  );
  return { ...env, PYTHONUNBUFFERED: "1", MODHUB_WEBHOOK_ALLOW_PRIVATE: "1", ...chosen };
}

function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

function run(cmd, argv, env) {
  const child = spawn(cmd, argv, { stdio: "inherit", env });
  return new Promise((ok) => child.on("exit", (code, signal) => ok(code ?? (signal ? 1 : 0))));
}

/** Expand `DIR/` arguments into the *.test.js files they hold (node --test takes files here). */
async function expand(argv) {
  const { readdirSync, statSync } = await import("node:fs");
  return argv.flatMap((a) => (existsSync(a) && statSync(a).isDirectory()
    ? readdirSync(a).filter((f) => f.endsWith(".test.js")).sort().map((f) => join(a, f)) : [a]));
}

async function startServer(onStart) {
  const cli = process.env.MODHUB_BIN ?? resolve(here, "../../../.venv/bin/modhub");
  if (!existsSync(cli)) throw new Error(`no modhub command at ${cli}: set MODHUB_BIN`);
  const folder = mkdtempSync(join(tmpdir(), "modhub-sdk-ts-"));
  const port = Number(process.env.MODHUB_SDK_PORT ?? (await freePort()));
  const env = serverEnv();
  const server = spawn(cli, ["run", "--port", String(port)], { cwd: folder, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const banner = new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`modhub run printed no banner in 120 s:\n${output}`)), 120_000);
    const read = (chunk) => {
      output += chunk;
      if (/demo secret key/.test(output) && /={20,}\s*$/.test(output)) {
        clearTimeout(timer);
        ok();
      }
    };
    server.stdout.on("data", read);
    server.stderr.on("data", read);
    server.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`modhub run exited (${code}):\n${output}`));
    });
  });
  // with Redis, webhooks are delivered by workers, not by the server: one runs beside it
  const worker = env.MODHUB_REDIS_URL ? spawn(cli, ["worker"], { cwd: folder, env, stdio: "ignore" }) : null;
  const end = async (child) => {
    if (child && child.exitCode === null) {
      const exited = new Promise((ok) => child.once("exit", ok));
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const stop = async () => {
    await Promise.all([end(worker), end(server)]);
    rmSync(folder, { recursive: true, force: true });
  };
  onStart(stop);
  try {
    await banner;
    const create = async (...extra) =>
      JSON.parse((await promisify(execFile)(cli, ["app", "create", ...extra], { cwd: folder, env })).stdout);
    const [main, quota] = await Promise.all([
      create("--name", "sdk-ts tests", "--permission", "user:proxy", "--per-minute", "1000", "--approve"),
      create("--name", "sdk-ts quota", "--per-minute", "2", "--approve"),
    ]);
    return {
      stop,
      env: {
        MODHUB_SDK_BASE_URL: `http://127.0.0.1:${port}`,
        MODHUB_SDK_API_KEY: main.apiKey,
        MODHUB_SDK_SECRET_KEY: main.secretKey,
        MODHUB_SDK_APP_ID: String(main.appId),
        MODHUB_SDK_QUOTA_API_KEY: quota.apiKey,
        MODHUB_SDK_QUOTA_SECRET_KEY: quota.secretKey,
        MODHUB_SDK_CLI: cli,
        MODHUB_SDK_DATA_DIR: folder,
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

const files = await expand(args);
if (process.env.MODHUB_SDK_BASE_URL) {
  process.exit(await run(command, files, process.env));
}
let stopServer = async () => {};
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => void stopServer().finally(() => process.exit(130)));
}
const live = await startServer((stop) => (stopServer = stop));
let status = 1;
try {
  status = await run(command, files, { ...process.env, ...live.env });
} finally {
  await live.stop();
}
process.exit(status);
