// Generates TypeScript clients from the committed OpenAPI document with the generators integrators use, and compiles
// them under `tsc --strict` together with a few calls written as an integrator would (usage/*.ts). Fails when a
// generator warns about the document, or when anything does not compile. Run by Maven (pom.xml, "generator-checks"),
// or by hand: `npm ci && node check.mjs [document]`. Output: ../../target/generator-checks/typescript.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const document = resolve(process.argv[2] ?? join(here, "../../docs/openapi.json"));
const out = resolve(here, "../../target/generator-checks/typescript");
const bin = (name) => join(here, "node_modules/.bin", name);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

function run(step, command, args) {
  const result = spawnSync(command, args, { cwd: here, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  console.log(`[${step}] ${command.split("/").pop()} ${args.join(" ")}\n${output.trim()}`);
  if (result.status !== 0) {
    throw new Error(`${step} failed (exit ${result.status})`);
  }
  // A warning the generator gives about the document fails the check as an error would.
  const warnings = output.split("\n").filter((line) => /warn|⚠/i.test(line));
  if (warnings.length > 0) {
    throw new Error(`${step} warned:\n${warnings.join("\n")}`);
  }
}

// openapi-typescript: types only (default options), used through openapi-fetch.
mkdirSync(join(out, "openapi-typescript"), { recursive: true });
run("openapi-typescript", bin("openapi-typescript"), [document, "-o", join(out, "openapi-typescript/schema.d.ts")]);

// hey-api openapi-ts: types, an SDK function per operation and its fetch client.
run("hey-api", bin("openapi-ts"), ["-i", document, "-o", join(out, "hey-api"), "-c", "@hey-api/client-fetch", "--no-log-file"]);

cpSync(join(here, "usage"), join(out, "usage"), { recursive: true });
writeFileSync(join(out, "tsconfig.json"), JSON.stringify({
  compilerOptions: {
    strict: true, noEmit: true, target: "ES2022", module: "ESNext", moduleResolution: "Bundler",
    lib: ["ES2022", "DOM", "DOM.Iterable"], skipLibCheck: true, noUnusedLocals: false, exactOptionalPropertyTypes: false,
    typeRoots: [join(here, "node_modules/@types")], baseUrl: ".",
    paths: { "openapi-fetch": [join(here, "node_modules/openapi-fetch")] },
  },
  include: ["openapi-typescript/**/*.ts", "hey-api/**/*.ts", "usage/**/*.ts"],
}, null, 2));
run("tsc --strict", bin("tsc"), ["-p", join(out, "tsconfig.json")]);
console.log("generator checks (TypeScript): passed");
