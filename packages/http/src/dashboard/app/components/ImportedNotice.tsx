/**
 * What the figures say about imported daily totals (a Plausible import), from the `imported`
 * field of the `/stats` answer: the imported days the numbers include, or why this view leaves
 * them out (a filter no imported table answers). Nothing on sites without imported days in range.
 */
import type { ImportedNote } from '@siteline/core';

const days = (n: number) => `${n} imported day${n === 1 ? '' : 's'}`;

export function ImportedNotice({ note }: { note: ImportedNote | undefined }) {
  if (!note) return null;
  return note.included ? (
    <p class="note imported" data-imported="included">
      Includes {days(note.days)} (Plausible daily totals, on days the site has no events of its own).
    </p>
  ) : (
    <p class="note imported" data-imported="left-out" role="status">
      {days(note.days)} left out: {note.reason}
    </p>
  );
}
