/**
 * Metric arithmetic of decisions.md section 3, written once. Storage
 * adapters return integer sums; these turn them into the published numbers.
 */

/**
 * `100 x part / whole`, one decimal place, 0 when `whole` is 0. Computed as
 * round(1000 p / w) / 10 so halves round up exactly.
 * @example percentage(1, 3) // 33.3
 */
export function percentage(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10;
}

/**
 * `100 x bounces / sessions`, one decimal place, 0 when there are no sessions.
 * @example bounceRate(1, 3) // 33.3
 */
export const bounceRate = (bounces: number, sessions: number): number => percentage(bounces, sessions);

/**
 * A goal's conversion rate: `100 x` its visitors / the `/stats` visitors of the same
 * query, one decimal place, 0 when there are none (properties-goals.md section 4).
 * @example conversionRate(2, 8) // 25
 */
export const conversionRate = (visitors: number, allVisitors: number): number => percentage(visitors, allVisitors);

/**
 * Mean duration in seconds, one decimal place, 0 when `count` is 0.
 * @example averageSeconds(95_000, 2) // 47.5
 */
export function averageSeconds(totalMs: number, count: number): number {
  return count === 0 ? 0 : Math.round(totalMs / (count * 100)) / 10;
}
