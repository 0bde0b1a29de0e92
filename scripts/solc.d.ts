// solc-js ships no types; what scripts/compile-local-feed.ts calls of it.
declare module "solc" {
  const solc: { compile(input: string): string; version(): string };
  export default solc;
}
