// Downloads with hash checks: in memory (WebCrypto) and to disk (the node entry); a tampered
// file fails.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { HashMismatchError } from "@modhub/client";
import { downloadToFile } from "@modhub/client/node";
import { client, dataDir } from "./live.js";

/** An on-site file of the demo catalogue, with its record. */
async function onSiteFile(skip = 0) {
  const app = client();
  for await (const resource of app.items("/openapi/v2/mods/search", { query: { pageSize: 100 } })) {
    const files = await app.get("/openapi/v2/mods/{postId}/files", { path: { postId: resource.postId } });
    const file = files.find((f) => f.storageType === "DIRECT_UPLOAD" && f.hashes?.sha512);
    if (file && skip-- === 0) return { ...file, postId: resource.postId };
  }
  throw new Error("no on-site file in the demo catalogue");
}

test("downloadFile checks sha1, sha256 and sha512 of the record", async () => {
  const file = await onSiteFile();
  const got = await client().downloadFile(file.postId, file.fileInfoId);
  assert.equal(got.bytes.length, file.fileSize);
  assert.deepEqual(got.hashes, { sha1: file.hashes!.sha1, sha256: file.hashes!.sha256, sha512: file.hashes!.sha512 });
});

test("a wrong expected hash fails; nothing is written to disk", async () => {
  const file = await onSiteFile();
  const wrong = { sha256: file.sha256!.replace(/^./, (c) => (c === "0" ? "1" : "0")) };
  await assert.rejects(client().download({ postId: file.postId, fileId: file.fileInfoId }, wrong),
    (e: unknown) => e instanceof HashMismatchError && e.algorithm === "sha256" && e.actual === file.sha256);
  const folder = mkdtempSync(join(tmpdir(), "sdk-dl-"));
  try {
    const target = join(folder, file.fileName!);
    await assert.rejects(downloadToFile(client(), { postId: file.postId, fileId: file.fileInfoId }, target, wrong), HashMismatchError);
    assert.equal(existsSync(target) || existsSync(`${target}.part`), false);
    await assert.rejects(client().download("/dl/1", {}), TypeError); // no expected hash: refused before any request
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("downloadToFile streams to disk with the three hashes; the install-info link works too", async () => {
  const file = await onSiteFile();
  const folder = mkdtempSync(join(tmpdir(), "sdk-dl-"));
  try {
    const target = join(folder, file.fileName!);
    const saved = await downloadToFile(client(), { postId: file.postId, fileId: file.fileInfoId }, target, file.hashes!);
    assert.equal(saved.size, file.fileSize);
    assert.equal(readFileSync(target).length, file.fileSize);
    assert.equal(saved.hashes.sha512, file.hashes!.sha512);

    const info = await client().get("/openapi/v2/mods/{postId}/install-info", { path: { postId: file.postId } });
    const link = info.files!.find((f) => f.fileInfoId === file.fileInfoId)!;
    assert.ok(link.downloadUrl, "an on-site file has a download link");
    const viaLink = await client().download(link.downloadUrl, { sha256: link.sha256 });
    assert.equal(viaLink.hashes.sha256, file.sha256);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("a file tampered with in the server's storage fails its hash check", async () => {
  const file = await onSiteFile(1);
  const sha = file.sha256!;
  const stored = join(dataDir, "modhub-data", "files", sha.slice(0, 2), sha.slice(2, 4), sha);
  const original = readFileSync(stored);
  const tampered = Buffer.from(original);
  tampered[0] = tampered[0]! ^ 0xff;
  writeFileSync(stored, tampered);
  try {
    await assert.rejects(client().downloadFile(file.postId, file.fileInfoId),
      (e: unknown) => e instanceof HashMismatchError && e.algorithm === "sha1");
    const folder = mkdtempSync(join(tmpdir(), "sdk-dl-"));
    try {
      await assert.rejects(downloadToFile(client(), { postId: file.postId, fileId: file.fileInfoId }, join(folder, "f"), file.hashes!),
        (e: unknown) => e instanceof HashMismatchError && e.expected === file.hashes!.sha1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  } finally {
    writeFileSync(stored, original);
  }
});
