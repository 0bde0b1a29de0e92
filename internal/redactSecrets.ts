/** The settings that hold RPC URLs: the user's, and the ones `npm start` passes its children. */
const RPC_URL_SETTINGS = ["BASE_RPC_URL", "BASE_FORK_URL", "CHAIN_RPC_URL", "PONDER_RPC_URL_8453"];

/**
 * A part of a URL's path or query this long is taken for a key wherever it appears, however the
 * URL around it was cut or re-encoded (provider keys are 32 characters and more; words like
 * `v2`, `rpc` or `base-mainnet` are shorter and stay readable).
 */
const MIN_KEY_LENGTH = 12;

/**
 * A function that masks, in any text, every configured RPC URL's path, query and credentials
 * (where hosted providers carry their API key: `https://base-mainnet.g.alchemy.com/v2/<key>`),
 * keeping scheme and host (`https://base-mainnet.g.alchemy.com/…`), and the password of any
 * Postgres URL. The URLs come from `env`, so it also finds them inside a library's error message
 * (viem's `URL: …` details, Ponder's stack traces), which no field-by-field scrubbing would.
 *
 * @example secretRedactor({ BASE_RPC_URL: "https://rpc.example/v2/k3y0123456789" })("at https://rpc.example/v2/k3y0123456789")
 * // "at https://rpc.example/…"
 */
export function secretRedactor(env: NodeJS.ProcessEnv = process.env): (text: string) => string {
  const replacements = new Map<string, string>();
  for (const setting of RPC_URL_SETTINGS) {
    for (const url of (env[setting] ?? "").split(",").map((entry) => entry.trim())) {
      for (const [from, to] of urlSecrets(url)) replacements.set(from, to);
    }
  }
  // Longest first: a whole URL before its path, its path before a key inside it.
  const ordered = [...replacements].sort(([a], [b]) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const [from, to] of ordered) if (out.includes(from)) out = out.split(from).join(to);
    return redactCredentials(out);
  };
}

/** What to replace for one URL: the URL itself, its secret tail, and each key-like part. */
function urlSecrets(url: string): [string, string][] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const tail = `${parsed.pathname === "/" ? "" : parsed.pathname}${parsed.search}`;
  if (tail === "" && parsed.username === "" && parsed.password === "") return [];
  const shown = `${parsed.protocol}//${parsed.host}/…`;
  const pairs: [string, string][] = [
    [url, shown],
    [url.replace(/\/+$/, ""), shown],
    [parsed.href, shown],
  ];
  if (tail.length >= 8) pairs.push([tail, "/…"]);
  const parts = [
    ...parsed.pathname.split("/"),
    ...parsed.search.slice(1).split("&"),
    ...[...parsed.searchParams.values()],
    parsed.username,
    parsed.password,
  ];
  for (const part of parts) {
    for (const form of new Set([part, safeDecode(part), encodeURIComponent(safeDecode(part))]))
      if (form.length >= MIN_KEY_LENGTH) pairs.push([form, "…"]);
  }
  return pairs;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A message with the password of any database URL in it masked. At debug level graphile-worker
 * prints its whole options object, connection string included.
 */
export function redactCredentials(message: string): string {
  return message.replace(/(postgres(?:ql)?:\/\/[^:@\s/]*:)[^@\s]*@/g, "$1***@");
}
