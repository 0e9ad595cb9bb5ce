// Every operation of the document is reachable through the client, by the name OPERATIONS records, and the names
// integrators know are where they expect them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Tender, { OPERATIONS } from "@tender/sdk";

const documentPath = fileURLToPath(new URL("../../../../docs/openapi.json", import.meta.url));

test("every operation of docs/openapi.json is a method of the client", () => {
  const document = JSON.parse(readFileSync(documentPath, "utf8"));
  const tender = new Tender({ apiKey: "sk_test_unit" }) as unknown as Record<string, unknown>;
  const reachable = new Map(OPERATIONS.map((o) => [`${o.method} ${o.path}`, o]));
  const missing: string[] = [];
  let count = 0;
  for (const [path, item] of Object.entries<Record<string, { operationId: string }>>(document.paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      if (!item[method]) continue;
      count++;
      const operation = reachable.get(`${method.toUpperCase()} ${path}`);
      const target = operation?.at.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], tender);
      if (typeof target !== "function") missing.push(`${method.toUpperCase()} ${path} (${item[method]!.operationId})`);
    }
  }
  assert.deepEqual(missing, [], "operations the client cannot call");
  assert.equal(OPERATIONS.length, count, "the client has no method for an operation the document lacks");
});

test("resources are named as integrators expect", () => {
  const at = new Set<string>(OPERATIONS.map((o) => o.at));
  for (const name of ["redemptions.create", "redemptions.retrieve", "redemptions.list", "paymentSessions.create",
    "payments.capture", "refunds.create", "billing.customers.create", "webhookEndpoints.create", "events.list"]) {
    assert.ok(at.has(name), name);
  }
});

test("the built library imports nothing but its own modules: no Node module, no package, so it runs on edge runtimes", () => {
  const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
  const files = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"));
  assert.ok(files.length > 0);
  for (const file of files) {
    const text = readFileSync(join(dist, file), "utf8");
    const imports = [...text.matchAll(/(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\("([^"]+)"\)/g)].map((m) => m[1] ?? m[2]);
    assert.deepEqual(imports.filter((i) => !i!.startsWith("./") && !i!.startsWith("../")), [], file);
    assert.doesNotMatch(text, /\b(process|Buffer|require)\b[.(]/, file);
  }
  const manifest = JSON.parse(readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8"));
  assert.equal(manifest.dependencies, undefined, "no runtime dependency");
});
