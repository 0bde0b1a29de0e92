import { expect, test } from "vitest";
import { cpuDuring, cpuSeconds, formatCpuUse, processTree } from "./processCpu.ts";

test("the CPU a piece of work burns is counted to the process that burned it", async () => {
  const { result, cpu } = await cpuDuring({}, async () => {
    const until = performance.now() + 300;
    let spins = 0;
    while (performance.now() < until) spins++;
    return spins;
  });
  expect(result).toBeGreaterThan(0);
  const self = cpu.parts.get("load generator (this process)") ?? 0;
  // 300 ms of spinning: most of it is this process's CPU, and the machine was that busy at least.
  expect(self).toBeGreaterThan(0.2);
  expect(self).toBeLessThanOrEqual(cpu.wall + 0.05);
  expect(cpu.busy).toBeGreaterThan(0);
  expect(cpu.busy).toBeLessThanOrEqual(1);
});

test("a named pid is reported under its name; a process gone reads as no CPU", async () => {
  expect(await processTree(process.pid)).toContain(process.pid);
  expect(cpuSeconds(2 ** 22 + 1)).toBe(0);
  const { cpu } = await cpuDuring({ API: process.pid }, async () => {
    const until = performance.now() + 100;
    while (performance.now() < until);
  });
  expect(cpu.parts.get("API")).toBeGreaterThan(0);
  expect(cpu.parts.has("load generator (this process)")).toBe(false);
});

test("the shares are printed per core, largest first", () => {
  const line = formatCpuUse(
    {
      wall: 2,
      busy: 0.95,
      parts: new Map([
        ["Postgres", 0.5],
        ["API", 1.2],
        ["anvil", 0],
      ]),
    },
    2,
  );
  expect(line).toBe("2 cores 95 % busy over 2.0 s (of one core: API 60 %, Postgres 25 %)");
});
