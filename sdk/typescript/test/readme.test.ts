// The README's quick start runs as written (like the service's DocsToursIT runs the docs' tours): its first `ts`
// block under "## Quick start" is type-checked under --strict, compiled, and run against the service, with only
// http://localhost:8080 replaced by TENDER_BASE_URL.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import ts from "typescript";
import { API_KEY, BASE_URL, service } from "./support.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

export function quickStart(): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quick start"));
  const block = section.match(/```ts\n([\s\S]*?)```/);
  assert.ok(block, "the README's quick start has a ts block");
  return block[1]!;
}

test("the README's quick start type-checks, runs as written and redeems a voucher", () => {
  service();
  const dir = join(root, "build-test", "readme");
  mkdirSync(dir, { recursive: true });
  const source = join(dir, "quickstart.ts");
  writeFileSync(source, quickStart().replaceAll("http://localhost:8080", BASE_URL));
  const options: ts.CompilerOptions = { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ["node"], outDir: dir, rootDir: dir, skipLibCheck: true };
  const program = ts.createProgram([source], options);
  const emitted = program.emit();
  const diagnostics = ts.getPreEmitDiagnostics(program).concat(emitted.diagnostics)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  assert.deepEqual(diagnostics, [], "the quick start compiles under --strict");
  const run = spawnSync(process.execPath, [join(dir, "quickstart.js")], {
    cwd: dirname(source), encoding: "utf8", env: { ...process.env, TENDER_API_KEY: API_KEY }, timeout: 60_000,
  });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /^rdm_[0-9a-f]{24} confirmed$/m);
  assert.match(run.stdout, /^listed rdm_/m);
});
