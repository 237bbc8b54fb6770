import { describe, expect, it } from 'vitest';
import { stateOfProcStat } from '../../../main/core/store/runner-lease.ts';

describe('stateOfProcStat', () => {
  it('reads the state after the command name, whatever the name holds', () => {
    expect(stateOfProcStat('4242 (node) S 1 4242 4242 0 -1 4194560')).toBe('S');
    expect(stateOfProcStat('77 (sleep) Z 76 77 1 0 -1 4227148')).toBe('Z');
    expect(stateOfProcStat('9 (a) b) (c) X 1 9 9')).toBe('X');
    expect(stateOfProcStat('12 (tab\there) R 1')).toBe('R');
  });

  it('returns null for what is not a stat line', () => {
    expect(stateOfProcStat('')).toBeNull();
    expect(stateOfProcStat('12 (no close S 1')).toBeNull();
    expect(stateOfProcStat('12 (x)')).toBeNull();
  });
});
