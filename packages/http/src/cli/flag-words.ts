/**
 * The library validates a command's flags with the API's own rules, whose messages name the
 * API's fields ("The from field must be…"). At the terminal the person typed `--from`: this is
 * the one mapping from field to flag, applied to every such message in one place (`runCli`).
 */

/** The API field each flag stands for, and the flag a person types. */
export const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  site_id: '--site',
  from: '--from',
  to: '--to',
  period: '--period',
};

const fields = Object.keys(FLAG_OF_FIELD).join('|');
/** The shapes in which the validation messages (core's query/messages.ts) name a field. */
const NAMED = new RegExp(`\\bThe (${fields}) field\\b|\\bThe selected (${fields})\\b|\\b(when|equal to) (${fields})\\b(?= is present|\\.$)`, 'g');

/**
 * A validation message in the command's words: each field it names becomes its flag.
 * @example inFlagWords('The to field is required when from is present.') // '--to is required when --from is present.'
 * @example inFlagWords('The selected period is invalid.') // '--period is invalid.'
 */
export function inFlagWords(message: string): string {
  return message.replace(NAMED, (whole, field?: string, selected?: string, before?: string, other?: string) => {
    if (field) return FLAG_OF_FIELD[field]!;
    if (selected) return FLAG_OF_FIELD[selected]!;
    return before && other ? `${before} ${FLAG_OF_FIELD[other]!}` : whole;
  });
}
