import { MESSAGES } from '@siteline/core';
import { describe, expect, it } from 'vitest';
import { inFlagWords } from './flag-words.js';

describe('validation messages in the command\'s words', () => {
  it('names the flag wherever a message names the field the flag stands for', () => {
    expect([
      MESSAGES.siteIdRequired,
      MESSAGES.siteIdFormat,
      MESSAGES.dateFormat('from'),
      MESSAGES.dateFormat('to'),
      MESSAGES.requiredWith('to', 'from'),
      MESSAGES.requiredWith('from', 'to'),
      MESSAGES.toBeforeFrom,
      MESSAGES.period,
      MESSAGES.rangeTooLong,
    ].map(inFlagWords)).toEqual([
      '--site is required.',
      '--site format is invalid.',
      '--from must be a valid date in the format YYYY-MM-DD.',
      '--to must be a valid date in the format YYYY-MM-DD.',
      '--to is required when --from is present.',
      '--from is required when --to is present.',
      '--to must be a date after or equal to --from.',
      '--period is invalid.',
      'The date range may not be longer than 3660 days.',
    ]);
  });

  it('leaves fields no flag stands for, and ordinary words, as they are', () => {
    expect(inFlagWords(MESSAGES.limitRange)).toBe('The limit field must be between 1 and 100.');
    expect(inFlagWords('Go from here to there.')).toBe('Go from here to there.');
  });
});
