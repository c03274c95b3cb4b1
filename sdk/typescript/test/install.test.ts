// Install-script signatures against the published key set: PEM bundle today, JWKS when published;
// a tampered script fails; a rotated key is fetched again.
import assert from "node:assert/strict";
import { test } from "node:test";
import { InstallKeySet, InstallSignatureError, keyIdOf, verifyInstallInfo, type Jwk } from "@modhub/client";
import { baseUrl, cli, client } from "./live.js";

test("install info of a resource verifies against the published key set", async () => {
  const app = client();
  const verified = await app.installInfo(1);
  assert.equal(verified.info.postId, 1);
  assert.ok(verified.script.steps.length > 0);
  assert.equal(typeof verified.script.steps[0]!.action, "string");
  const keys = await app.installKeys();
  assert.ok(keys.keys.has(verified.keyId));
  const response = await fetch(`${baseUrl}/openapi/v2/meta/install-signing-key`);
  assert.equal(response.headers.get("X-Install-Key-Id"), verified.keyId);
  assert.equal([...keys.keys.values()].find((k) => k.kid === verified.keyId)!.status, "CURRENT");
});

test("a tampered script, a foreign signature or an unknown key fails", async () => {
  const app = client();
  const info = await app.get("/openapi/v2/mods/{postId}/install-info", { path: { postId: 1 } });
  const other = await app.get("/openapi/v2/mods/{postId}/install-info", { path: { postId: 2 } });
  const keys = await app.installKeys();
  const fails = (changed: typeof info) => assert.rejects(verifyInstallInfo(changed, keys), InstallSignatureError);
  await fails({ ...info, script: info.script!.replace('"mods/"', '"../../"') });
  await fails({ ...info, script: `${info.script} ` });
  await fails({ ...info, scriptSignature: other.scriptSignature });
  await fails({ ...info, scriptKeyId: "0000000000000000" });
  await fails({ ...info, scriptSignature: null });
});

test("the key set reads the PEM bundle and a JWKS of the same key alike", async () => {
  const app = client();
  const info = await app.get("/openapi/v2/mods/{postId}/install-info", { path: { postId: 1 } });
  const pem = await (await fetch(`${baseUrl}/openapi/v2/meta/install-signing-key`)).text();
  const fromPem = await InstallKeySet.parse(pem);
  const [key] = fromPem.keys.values();
  const der = Buffer.from(pem.split("-----BEGIN PUBLIC KEY-----")[1]!.split("-----END")[0]!.replace(/\s+/g, ""), "base64");
  assert.equal(await keyIdOf(new Uint8Array(der)), key!.kid);

  const exported = await crypto.subtle.exportKey("jwk", await crypto.subtle.importKey(
    "spki", der, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, true, ["verify"]));
  const jwks = { keys: [{ kty: "RSA", n: exported.n!, e: exported.e!, kid: key!.kid, use: "sig", alg: "RS256" } as Jwk] };
  for (const set of [await InstallKeySet.parse(jwks), await InstallKeySet.parse(JSON.stringify(jwks))]) {
    assert.ok(await set.verify(info.script!, info.scriptSignature!, info.scriptKeyId));
    assert.equal(set.keys.get(key!.kid)!.status, "CURRENT"); // no status given: the first key is current
  }
  await assert.rejects(InstallKeySet.parse({ keys: [{ ...jwks.keys[0]!, kid: "ffffffffffffffff" }] }), /has kid/);
  await assert.rejects(InstallKeySet.parse(pem.replace(key!.kid, "ffffffffffffffff")), /has kid/);
});

test("after a key rotation the client fetches the key set again and verifies with the new key", async () => {
  const app = client();
  const before = await app.installInfo(1);
  await cli("keys", "rotate-install-key");
  const after = await app.installInfo(1); // the cached set does not know the new kid yet
  assert.notEqual(after.keyId, before.keyId);
  const keys = await app.installKeys();
  assert.equal(keys.keys.get(after.keyId)!.status, "CURRENT");
  assert.equal(keys.keys.get(before.keyId)!.status, "PREVIOUS");
  assert.ok(await keys.verify(before.info.script!, before.info.scriptSignature!, before.keyId)); // still published
});
