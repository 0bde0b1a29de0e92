// Types of fastResolve.mjs (plain JavaScript: it runs before anything could compile TypeScript).
type Resolved = { url: string; format?: string | null; shortCircuit?: boolean };
type ResolveContext = {
  parentURL?: string;
  conditions: string[];
  importAttributes: Record<string, string>;
};

export function fastResolve(
  specifier: string,
  context: ResolveContext,
  nextResolve: (specifier: string, context: ResolveContext) => Resolved,
): Resolved;
