import { execFile, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { waitFor } from "../../internal/process.ts";
import { projectRoot } from "../../internal/projectRoot.ts";
import { childEnv } from "../helpers/env.ts";
import { EVENT_MS } from "../helpers/waits.ts";

export const remitBin = path.join(projectRoot, "cli/remit.mjs");

/** Runs the real `remit` binary as a child process. */
export function runCli(
  args: string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [remitBin, ...args], {
      env: childEnv({ NO_COLOR: "1", ...options.env }),
      stdio: ["pipe", "pipe", "pipe"],
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}

const run = promisify(execFile);

let terminals = 0;

/**
 * tmux on a server of its own (`-S`): a server shared between test files exits when its last
 * session ends, and a session starting in that moment fails with "server exited unexpectedly".
 */
export const tmux = (server: string, args: string[]) =>
  run("tmux", ["-S", tmuxSocket(server), ...args]);

const tmuxSocket = (server: string) => path.join(tmpdir(), `${server}.tmux`);

/** Stops a tmux server of tmux() and removes its socket (a stopped server leaves it behind). */
export async function stopTmux(server: string) {
  await tmux(server, ["kill-server"]).catch(() => {});
  await rm(tmuxSocket(server), { force: true });
}

/** A real terminal: the command runs in a detached tmux session we type into and read. */
export async function startTerminal(command: string, env: Record<string, string>) {
  const session = `remit-${process.pid}-${Date.now()}-${++terminals}`;
  const exports = Object.entries(env)
    .map(([key, value]) => `${key}='${value}'`)
    .join(" ");
  await tmux(session, [
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "120",
    "-y",
    "50",
    `env ${exports} ${command}; sleep 30`,
  ]);
  const screen = async () =>
    (await tmux(session, ["capture-pane", "-p", "-t", session, "-S", "-200"])).stdout;
  return {
    screen,
    /** Waits until `pattern` is on screen (after `occurrence - 1` earlier matches). */
    waitFor: (pattern: RegExp, timeoutMs = EVENT_MS) =>
      waitFor(`${pattern} on the terminal`, async () => pattern.test(await screen()), {
        timeoutMs,
        intervalMs: 50,
      }).catch(async (error) => {
        throw new Error(`${(error as Error).message}\n--- screen ---\n${await screen()}`);
      }),
    type: async (text: string) => {
      await tmux(session, ["send-keys", "-t", session, "-l", text]);
    },
    press: async (...keys: string[]) => {
      await tmux(session, ["send-keys", "-t", session, ...keys]);
    },
    stop: () => stopTmux(session),
  };
}

/**
 * `remit <args>` in a real terminal (startTerminal) against the API at `apiUrl`, with `answer`:
 * waits for a prompt, types the text (none: the prompt's default) and presses Enter.
 */
export async function remitTerminal(args: string, apiUrl: string) {
  const terminal = await startTerminal(`${process.execPath} ${remitBin} ${args}`, {
    REMIT_API_URL: apiUrl,
  });
  const answer = async (prompt: RegExp, text: string) => {
    await terminal.waitFor(prompt);
    if (text) await terminal.type(text);
    await terminal.press("Enter");
  };
  return { ...terminal, answer };
}

/** The interactive invoice's first prompts: the merchant's email, name and address, the vendor's. */
export async function answerParties(
  terminal: Awaited<ReturnType<typeof remitTerminal>>,
  parties: {
    merchantEmail: string;
    merchantName: string;
    merchantAddress: string;
    vendorName: string;
  },
) {
  await terminal.answer(/Your email/, parties.merchantEmail);
  await terminal.answer(/business name/, parties.merchantName);
  await terminal.answer(/business address/, parties.merchantAddress);
  await terminal.answer(/Vendor's email/, "vendor@example.com");
  await terminal.answer(/Vendor's name/, parties.vendorName);
  await terminal.answer(/Vendor's address/, "");
}

/**
 * The interactive invoice's prompts after its lines: the due date, no notes, a managed wallet,
 * no webhook, not emailed now (a draft).
 */
export async function answerTerms(
  terminal: Awaited<ReturnType<typeof remitTerminal>>,
  due: string,
) {
  await terminal.answer(/Due date/, due);
  await terminal.answer(/Notes/, "");
  await terminal.answer(/Where should the money go/, "");
  await terminal.answer(/Webhook URL/, "");
  await terminal.waitFor(/Email the invoice to the vendor now/);
  await terminal.press("n");
}
