import type { Random } from './random.ts';

/**
 * Faults the simulator can inject, each named as on the command line.
 * Work faults hit the API endpoints; download faults hit temporary file URLs and video content.
 */
export const WORK_FAULTS = {
  '429': 'rate limited, with Retry-After',
  '500': 'internal error before any work',
  '502': 'bad gateway before any work',
  '503': 'service unavailable before any work',
  '504': 'gateway time-out AFTER the work was done and charged',
  '524': 'origin time-out AFTER the work was done and charged',
  reset: 'connection reset in the middle of the response body (not charged)',
  slow: 'the response body trickles out slowly',
  'stream-error': 'a streamed text answer breaks off half-way with an error event (not charged)',
  empty: '200 with an empty data array (not charged)',
  partial: 'n > 1 returns fewer images than asked, with partial-success metadata',
  'task-fail': 'a video task ends in FAILURE with a fail reason (refunded)',
  'task-quota': 'a video task is in FAILURE at once, code insufficient_user_quota (refunded)',
} as const;

export const DOWNLOAD_FAULTS = {
  'url-404': 'the temporary URL has expired (404)',
  'url-500': 'the file server fails (500)',
  'url-truncate': 'the file body is cut short',
} as const;

export type WorkFault = keyof typeof WORK_FAULTS;
export type DownloadFault = keyof typeof DOWNLOAD_FAULTS;
export type FaultName = WorkFault | DownloadFault;
export type FaultScope = 'work' | 'download';

export interface FaultRule {
  fault: FaultName;
  scope: FaultScope;
  /** Chance per eligible request, 0..1. */
  probability: number;
  /** 1-based positions among the scope's requests that always get this fault. */
  schedule: number[];
}

function scopeOf(name: string): FaultScope | null {
  if (name in WORK_FAULTS) return 'work';
  if (name in DOWNLOAD_FAULTS) return 'download';
  return null;
}

/**
 * Parses `--faults`: comma-separated `name:probability` or `name@n+n+…` entries,
 * e.g. `429:0.1,504@3,url-404:0.05`. Throws with the reason and the accepted names.
 */
export function parseFaultSpec(spec: string | undefined): FaultRule[] {
  if (!spec || !spec.trim()) return [];
  const known = [...Object.keys(WORK_FAULTS), ...Object.keys(DOWNLOAD_FAULTS)].join(', ');
  return spec.split(',').map((raw) => {
    const entry = raw.trim();
    const match = /^([a-z0-9-]+)(?::([0-9.]+)|@([0-9+]+))$/.exec(entry);
    if (!match) {
      throw new Error(
        `Fault "${entry}" is not of the form name:probability or name@n+n (e.g. 429:0.1 or 504@3).`,
      );
    }
    const [, name = '', probability, schedule] = match;
    const scope = scopeOf(name);
    if (!scope) throw new Error(`Unknown fault "${name}". Known faults: ${known}.`);
    const rule: FaultRule = { fault: name as FaultName, scope, probability: 0, schedule: [] };
    if (probability !== undefined) {
      const p = Number(probability);
      if (!Number.isFinite(p) || p < 0 || p > 1) {
        throw new Error(`Fault "${entry}": probability must be between 0 and 1.`);
      }
      rule.probability = p;
    } else {
      rule.schedule = (schedule ?? '').split('+').map((n) => {
        const position = Number(n);
        if (!Number.isInteger(position) || position < 1) {
          throw new Error(`Fault "${entry}": schedule positions are whole numbers from 1.`);
        }
        return position;
      });
    }
    return rule;
  });
}

/** Decides, request by request, which fault (if any) applies. Reproducible for a given seed. */
export class FaultPicker {
  private readonly counters: Record<FaultScope, number> = { work: 0, download: 0 };
  private readonly rules: FaultRule[];
  private readonly random: Random;

  constructor(rules: FaultRule[], random: Random) {
    this.rules = rules;
    this.random = random;
  }

  /** Replaces the active rules (tests switch faults on a running simulator). */
  set(rules: FaultRule[]): void {
    this.rules.splice(0, this.rules.length, ...rules);
  }

  pick(scope: FaultScope): FaultName | null {
    const position = ++this.counters[scope];
    let chosen: FaultName | null = null;
    for (const rule of this.rules) {
      if (rule.scope !== scope) continue;
      // Draw for every probabilistic rule so the sequence does not depend on earlier matches.
      const hit =
        rule.schedule.includes(position) ||
        (rule.probability > 0 && this.random() < rule.probability);
      if (hit && chosen === null) chosen = rule.fault;
    }
    return chosen;
  }
}
