import { isFailureKind, type FailureKind } from '../../../shared/jobs/outcomes.ts';
import type { Store } from '../../core/store/store.ts';

/**
 * Failed jobs by kind, for the summary's retry advice (uncertain ones need `--uncertain`).
 * The repositories have no such count, so this reads the table directly; the partial index
 * on failed jobs keeps it a short scan of the failures only.
 */
export function failureCounts(
  store: Store,
  batchId?: number,
): Partial<Record<FailureKind, number>> {
  const rows = store.db
    .prepare(
      `SELECT failure_kind AS kind, count(*) AS n FROM jobs
       WHERE state = 'failed' AND (@batchId IS NULL OR batch_id = @batchId) GROUP BY 1`,
    )
    .all({ batchId: batchId ?? null }) as Array<{ kind: string | null; n: number }>;
  const counts: Partial<Record<FailureKind, number>> = {};
  for (const { kind, n } of rows) {
    const key: FailureKind = isFailureKind(kind) ? kind : 'internal';
    counts[key] = (counts[key] ?? 0) + n;
  }
  return counts;
}
