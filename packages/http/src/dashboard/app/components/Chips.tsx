/** The active filters as removable chips, after a shared link's segment (`locked`: shown, not removable). */
import type { FilterCondition } from '@siteline/core';
import { describeCondition } from '../panels.js';

export function Chips({ locked = [], filters, onRemove, onClear }: { locked?: FilterCondition[]; filters: FilterCondition[]; onRemove(index: number): void; onClear(): void }) {
  if (filters.length === 0 && locked.length === 0) return null;
  return (
    <div class="chips" role="group" aria-label="Filters">
      {locked.map((condition, i) => {
        const text = describeCondition(condition);
        return <span class="chip locked" key={`locked:${i}:${text}`} title="Part of this shared dashboard: it cannot be removed">{text}</span>;
      })}
      {filters.map((condition, i) => {
        const text = describeCondition(condition);
        return (
          <span class="chip" key={`${i}:${text}`}>
            {text}
            <button type="button" aria-label={`Remove filter: ${text}`} onClick={() => onRemove(i)}>×</button>
          </span>
        );
      })}
      {filters.length > 1 && <button type="button" class="clear" onClick={onClear}>Clear all</button>}
    </div>
  );
}
