// Concurrent callers asking for the same key share one run of the work.
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const existing = this.running.get(key);
    if (existing) return existing;
    const p = work().finally(() => this.running.delete(key));
    this.running.set(key, p);
    return p;
  }

  get size(): number {
    return this.running.size;
  }
}
