/**
 * Beacons waiting for their answer. A beacon is answered 202 only once the write holding it is
 * durable, and writes complete in the order beacons were accepted, so the waiting beacons form
 * one queue that each completed write settles from the front.
 */

/**
 * A first-in, first-out queue of beacons waiting for their write: `wait` queues one, `settle`
 * answers the oldest `n` (kept or not).
 *
 * @example
 * const answers = new PendingAnswers();
 * const kept = answers.wait(); // resolves when settled
 * answers.settle(1, true);
 * await kept; // true
 */
export class PendingAnswers {
  private waiting: ((kept: boolean) => void)[] = [];
  private head = 0;

  /** Beacons waiting. */
  get size(): number {
    return this.waiting.length - this.head;
  }

  /** Queues a beacon; resolves `true` once its write is durable, `false` if it was not kept. */
  wait(): Promise<boolean> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Answers the `n` oldest beacons; `kept` says whether each was kept (default: all as `kept`). */
  settle(n: number, kept: boolean | ((i: number) => boolean)): void {
    const end = Math.min(this.head + n, this.waiting.length);
    for (let i = this.head; i < end; i++) this.waiting[i]!(typeof kept === 'boolean' ? kept : kept(i - this.head));
    this.head = end;
    // Compact now and then instead of shifting per beacon.
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
    } else if (this.head > 4096 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
  }

  /** Answers every waiting beacon as not kept (the writer went away). */
  failAll(): void {
    this.settle(this.size, false);
  }
}
