// The README's quick start runs as it is written against the live server.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { apiKey, baseUrl, secretKey } from "./live.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

test("the README's quick start runs", async () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(code, "the README has a js quick start");
  assert.ok(code.trim().split("\n").length <= 10, "ten lines at most");
  const script = join(root, "build", "quick-start.mjs"); // inside the package: @modhub/client resolves to it
  writeFileSync(script, code);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script], {
      env: { ...process.env, MODHUB_URL: baseUrl, MODHUB_API_KEY: apiKey, MODHUB_SECRET: secretKey },
    });
    assert.match(stdout, /^200404 \S+$/m); // the last line: a typed error with its trace id
  } finally {
    rmSync(script, { force: true });
  }
});
