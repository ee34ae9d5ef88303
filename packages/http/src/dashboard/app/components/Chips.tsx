/** The active filters as removable chips. */
import type { FilterCondition } from '@siteline/core';
import { describeCondition } from '../panels.js';

export function Chips({ filters, onRemove, onClear }: { filters: FilterCondition[]; onRemove(index: number): void; onClear(): void }) {
  if (filters.length === 0) return null;
  return (
    <div class="chips" role="group" aria-label="Filters">
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
