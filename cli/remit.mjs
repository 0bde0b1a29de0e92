#!/usr/bin/env node
// The `remit` command. TypeScript is loaded through tsx, so the CLI runs from the checkout as
// it is (`npx remit …`) and from a global install (`npm install -g .`).
import { register } from "tsx/esm/api";

register();
await import("./main.ts");
