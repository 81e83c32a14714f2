// Runs work for one key at a time in this process, in arrival order; different keys run side by side. A quota
// checked against the read models ("fewer than N webhooks") holds under concurrent requests only if the check
// and the write it allows are not interleaved with another of the same caller's; the split deployment has one
// command API, so this process sees every such write.
export class OneAtATime {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
