const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` with every lone UTF-16 surrogate replaced by U+FFFD: what every store keeps of
 * such a string anyway (a lone surrogate has no UTF-8 form), made explicit where text is
 * stored inside another encoding (JSON) that could otherwise carry it through.
 * @example wellFormed('a\uD800b') // 'a\uFFFDb'
 */
export function wellFormed(text: string): string {
  return /[\uD800-\uDFFF]/.test(text) ? text.replace(LONE_SURROGATE, '\uFFFD') : text;
}
