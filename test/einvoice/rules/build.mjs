#!/usr/bin/env node
// Compiles the vendored validation rules into the SEF files that test/einvoice/validate.ts runs.
//   node test/einvoice/rules/build.mjs [rule-set …]   (default: all; needs the xslt3 devDependency)
// 1. peppol/PEPPOL-EN16931-UBL.sch → peppol/PEPPOL-EN16931-UBL.xslt, by the vendored SchXslt.
// 2. each rule set's .xslt → .sef.json.gz, by xslt3 (SaxonJS's compiler); then manifest.json gets
//    the sha256 of each source, which officialExamples.test.ts checks so a stale SEF cannot pass.
// One EN 16931 XSLT takes 1–3 minutes and ~600 MB here; run them one at a time (the default).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const xslt3 = require.resolve("xslt3/xslt3.js");
const versions = {
  xslt3: require("xslt3/package.json").version,
  "saxon-js": require("saxon-js/package.json").version,
};

const SETS = {
  "en16931-ubl": { xslt: "en16931/EN16931-UBL-validation.xslt" },
  "en16931-cii": { xslt: "en16931/EN16931-CII-validation.xslt" },
  "peppol-ubl": {
    sch: "peppol/PEPPOL-EN16931-UBL.sch",
    xslt: "peppol/PEPPOL-EN16931-UBL.xslt",
  },
};

function run(args) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [xslt3, ...args], { cwd: here, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`xslt3 ${args.join(" ")} exited ${r.status}`);
  return Date.now() - started;
}

const sha256 = (file) =>
  createHash("sha256")
    .update(readFileSync(path.join(here, file)))
    .digest("hex");

const manifestFile = path.join(here, "manifest.json");
const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SETS);
for (const name of wanted) {
  const set = SETS[name];
  if (!set) throw new Error(`unknown rule set ${name}; known: ${Object.keys(SETS).join(", ")}`);
  if (set.sch) {
    const ms = run([
      "-xsl:schxslt/xslt/2.0/pipeline-for-svrl.xsl",
      `-s:${set.sch}`,
      `-o:${set.xslt}`,
    ]);
    console.log(`${name}: ${set.sch} → ${set.xslt} in ${ms} ms`);
  }
  const sef = set.xslt.replace(/\.xslt$/, ".sef.json");
  const ms = run([`-xsl:${set.xslt}`, `-export:${sef}`, "-nogo", "-relocate:on"]);
  writeFileSync(
    path.join(here, `${sef}.gz`),
    gzipSync(readFileSync(path.join(here, sef)), { level: 9 }),
  );
  rmSync(path.join(here, sef));
  console.log(`${name}: ${set.xslt} → ${sef}.gz in ${ms} ms`);
  manifest.compiled[name] = {
    source: set.sch ?? set.xslt,
    sourceSha256: sha256(set.sch ?? set.xslt),
    sef: `${sef}.gz`,
    compiledWith: versions,
    compiledAt: new Date().toISOString(),
  };
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
}
