// The generated code follows the contract: regenerate and compare (drift), and the package's
// version is the contract's info.version.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { CONTRACT_VERSION, ModhubClient, OPERATIONS, findOperation } from "@modhub/client";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

test("src/generated is what the contract generates today (npm run generate)", () => {
  const out = mkdtempSync(join(tmpdir(), "sdk-gen-"));
  try {
    execFileSync(process.execPath, [join(root, "scripts/generate.mjs"), "--out", out], { stdio: "pipe" });
    for (const name of ["schema.ts", "operations.ts"]) {
      const committed = readFileSync(join(root, "src/generated", name), "utf8");
      assert.ok(readFileSync(join(out, name), "utf8") === committed,
        `src/generated/${name} differs from the contract: run npm run generate and commit`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("the package version is the contract's info.version", () => {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  const contract = readFileSync(join(root, "../../openapi/openapi.yaml"), "utf8");
  const version = /^info:\n(?:\s+.*\n)*?\s+version:\s*['"]?([^'"\s]+)/m.exec(contract)?.[1];
  assert.equal(CONTRACT_VERSION, version);
  assert.equal(pkg.version, version);
  assert.equal(ModhubClient.contractVersion, version);
});

test("the operation table carries the contract's flags", () => {
  assert.equal(findOperation("get", "/openapi/v2/mods/search")?.operationId, "searchMods");
  assert.equal(findOperation("POST", "/openapi/v2/proxy-user/{userId}/points/adjust")?.idempotencyKey, true);
  assert.equal(findOperation("POST", "/openapi/v2/files")?.readOnly, true);
  assert.equal(findOperation("POST", "/openapi/v2/mods/{postId}/download-failure")?.readOnly, false);
  assert.equal(findOperation("GET", "/openapi/v2/meta/install-signing-key")?.access, "A");
  assert.ok(OPERATIONS.length > 130);
});

test("the core (everything but dist/node.js) imports no Node module and uses no Node global", () => {
  const dist = join(root, "dist");
  const files = ["index.js", "client.js", "download.js", "encoding.js", "errors.js", "install.js", "retry.js",
    "signing.js", "sync.js", "types.js", "webhooks.js", "generated/operations.js", "generated/schema.js"];
  for (const name of files) {
    const code = readFileSync(join(dist, name), "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    const imports = [...code.matchAll(/from\s+"([^"]+)"|import\("([^"]+)"\)/g)].map((m) => m[1] ?? m[2]);
    assert.deepEqual(imports.filter((spec) => !spec!.startsWith("./")), [], name);
    assert.doesNotMatch(code, /\b(Buffer|process|require|__dirname)\b/, name);
  }
});
