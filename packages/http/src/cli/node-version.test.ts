import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from './node-version.js';

describe('the Node.js version check of the command', () => {
  it('refuses the lines before 22 with what to do, and lets 22 and later run', () => {
    expect(nodeVersionProblem('v20.20.2')).toBe('Node.js 22 or later is needed; this is v20.20.2. Install a current LTS line (24 or 22), then run npm install again.');
    expect(nodeVersionProblem('v18.0.0')).toMatch(/^Node\.js 22 or later is needed; this is v18\.0\.0\./);
    expect([nodeVersionProblem('v22.0.0'), nodeVersionProblem('v24.21.0'), nodeVersionProblem('v100.1.0')]).toEqual([undefined, undefined, undefined]);
  });
});
