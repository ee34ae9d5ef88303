/**
 * Counting agreement with a fixture, keeping every disagreement and every case left out
 * (with the reason), so the printout shows exactly what the percentage stands on.
 */

export interface Miss {
  input: string;
  expected: string;
  got: string;
}

export interface Tally {
  readonly name: string;
  /** Where the cases came from, one line. */
  readonly source: string;
  /** Lowest acceptable agreement (0..1), when the issue sets one. */
  readonly target: number | undefined;
  compared: number;
  agreed: number;
  readonly misses: Miss[];
  /** Reason -> inputs left out for it. */
  readonly excluded: Map<string, string[]>;
}

export function createTally(name: string, source: string, target?: number): Tally {
  return { name, source, target, compared: 0, agreed: 0, misses: [], excluded: new Map() };
}

/** Counts one comparable case (`expected` already mapped to our names). */
export function compare(tally: Tally, input: string, expected: string, got: string): void {
  tally.compared++;
  if (expected === got) tally.agreed++;
  else tally.misses.push({ input, expected, got });
}

/** Leaves one case out, for a stated reason; it is counted and listed, never silently dropped. */
export function exclude(tally: Tally, reason: string, input: string): void {
  const inputs = tally.excluded.get(reason) ?? [];
  inputs.push(input);
  tally.excluded.set(reason, inputs);
}

export const agreement = (tally: Tally): number => (tally.compared === 0 ? Number.NaN : tally.agreed / tally.compared);

export const meetsTarget = (tally: Tally): boolean => tally.target === undefined || agreement(tally) >= tally.target;

const percent = (x: number) => (Number.isNaN(x) ? 'n/a' : `${(x * 100).toFixed(1)}%`);

/** One summary line: `browser (uap-core, mainstream)  1234/1260  97.9%  target 97%: met`. */
export function summaryLine(tally: Tally): string {
  const target = tally.target === undefined ? '' : `  target >= ${percent(tally.target)}: ${meetsTarget(tally) ? 'met' : 'MISSED'}`;
  const left = [...tally.excluded.values()].reduce((n, inputs) => n + inputs.length, 0);
  return `${tally.name.padEnd(50)} ${`${tally.agreed}/${tally.compared}`.padStart(9)}  ${percent(agreement(tally)).padStart(6)}${target}  (${left} not comparable)`;
}

/** The details: every disagreement (up to `limit`) and the count and examples of each exclusion. */
export function detailLines(tally: Tally, limit: number): string[] {
  const lines = [`## ${tally.name}`, `source: ${tally.source}`, summaryLine(tally)];
  if (tally.misses.length > 0) {
    lines.push(`disagreements (${tally.misses.length}):`);
    for (const miss of tally.misses.slice(0, limit)) lines.push(`  expected ${miss.expected}, got ${miss.got}: ${miss.input}`);
    if (tally.misses.length > limit) lines.push(`  ... and ${tally.misses.length - limit} more (--limit to list more)`);
  }
  for (const [reason, inputs] of tally.excluded) {
    lines.push(`not comparable, ${reason} (${inputs.length}):`);
    for (const input of inputs.slice(0, limit)) lines.push(`  ${input}`);
    if (inputs.length > limit) lines.push(`  ... and ${inputs.length - limit} more`);
  }
  return lines;
}
