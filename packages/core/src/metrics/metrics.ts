/**
 * Metric arithmetic of decisions.md section 3, written once. Storage
 * adapters return integer sums; these turn them into the published numbers.
 */

/**
 * `100 x bounces / sessions`, one decimal place, 0 when there are no sessions.
 * Computed as round(1000 b / s) / 10 so halves round up exactly.
 * @example bounceRate(1, 3) // 33.3
 */
export function bounceRate(bounces: number, sessions: number): number {
  return sessions === 0 ? 0 : Math.round((1000 * bounces) / sessions) / 10;
}

/**
 * Mean duration in seconds, one decimal place, 0 when `count` is 0.
 * @example averageSeconds(95_000, 2) // 47.5
 */
export function averageSeconds(totalMs: number, count: number): number {
  return count === 0 ? 0 : Math.round(totalMs / (count * 100)) / 10;
}
