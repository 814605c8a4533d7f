/**
 * What a run holds until it ends (its results file or spool, its compute workers, the embedding cache), released
 * last-acquired first. Each release runs even when a later-acquired one failed, as nested `finally` blocks would.
 */
export class Resources {
  private readonly releases: (() => Promise<void>)[] = [];

  add(release: () => Promise<void>): void {
    this.releases.push(release);
  }

  async release(): Promise<void> {
    const next = this.releases.pop();
    if (!next) return;
    try {
      await next();
    } finally {
      await this.release();
    }
  }
}
