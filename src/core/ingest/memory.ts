/**
 * A shared budget of bytes that ingest requests may hold in memory at once. A request that
 * cannot reserve what it needs is refused (503) instead of growing the heap without bound.
 */
export class MemoryBudget {
  private used = 0;

  constructor(readonly capacity: number) {}

  tryReserve(bytes: number): boolean {
    if (this.used + bytes > this.capacity) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  get inUse(): number {
    return this.used;
  }
}
