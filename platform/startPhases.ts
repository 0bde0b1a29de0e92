/**
 * When each step of `npm start` finished, in ms since this process started (performance.now()),
 * printed with the `ready` line as `phases` so that a slow start shows where its time went
 * (docs/operations.md, "Where start-up time goes"). A step is recorded once: its first finish.
 */
export class StartPhases {
  private readonly at: Record<string, number> = {};

  mark(phase: string): void {
    this.at[phase] ??= Math.round(performance.now());
  }

  /** Records a step that finished before this module ran (the launcher's bundle check). */
  markAt(phase: string, ms: number): void {
    this.at[phase] ??= Math.round(ms);
  }

  /**
   * Records, from one /health answer (200 or 503), every component that reports ok, as
   * `<component>_ok`, `indexer_live` once the indexer no longer reports `starting`, and
   * `api_answering` on the first answer at all: each component's own
   * readiness, seen from outside, without any component having to report its start-up.
   */
  markHealth(body: unknown): void {
    this.mark("api_answering");
    const components = (body as { components?: Record<string, { ok?: boolean }> } | null)
      ?.components;
    if (!components || typeof components !== "object") return;
    for (const [name, state] of Object.entries(components)) {
      if (state?.ok === true) this.mark(`${name}_ok`);
      // The indexer beats once its Ponder indexes live (indexer/ponderLive.ts): from then it is
      // catching up with the head, no longer starting; the two parts of its start, apart.
      if (name === "indexer" && state && "indexed_block" in state && !("starting" in state))
        this.mark("indexer_live");
    }
  }

  toJSON(): Record<string, number> {
    return { ...this.at };
  }
}
