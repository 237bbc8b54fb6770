import { useState } from 'react';
import { useClient } from '../../api/client-context.ts';
import { useExports } from '../../data/app-queries.ts';
import { formatBytes, formatWhole } from '../../format.ts';
import { useCancelExport } from './gallery-actions.ts';

/** Exports running or just finished: progress, cancel, and where the zip went. */
export function ExportPanel() {
  const exportsById = useExports();
  const cancel = useCancelExport();
  const client = useClient();
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const shown = [...exportsById.values()].filter((each) => !dismissed.has(each.id));
  if (shown.length === 0) return null;
  return (
    <section className="export-panel" aria-label="Exports">
      {shown.map((each) => {
        const percent = each.total === 0 ? 100 : Math.round((each.done / each.total) * 100);
        const download = client.exportUrl(each.id);
        return (
          <div key={each.id} className={`export-item export-${each.state}`}>
            <p className="export-title">
              {each.state === 'running' &&
                `Exporting ${formatWhole(each.done)} of ${formatWhole(each.total)}…`}
              {each.state === 'done' && `Exported ${formatWhole(each.done)} images`}
              {each.state === 'canceled' && 'Export canceled'}
              {each.state === 'failed' && 'Export failed'}
            </p>
            {each.state === 'running' && (
              <progress max={100} value={percent} aria-label={`Export to ${each.path}`} />
            )}
            {each.state === 'failed' ? (
              <p className="export-path muted">{each.error}</p>
            ) : (
              <p className="export-path muted" title={each.path}>
                <span className="export-file">
                  <bdi dir="ltr">{each.path}</bdi>
                </span>
                <span className="export-size">{formatBytes(each.bytes)}</span>
              </p>
            )}
            <div className="export-actions">
              {each.state === 'running' ? (
                <button
                  type="button"
                  className="ghost small"
                  disabled={cancel.disabled}
                  onClick={() => void cancel.run(each.id)}
                >
                  Cancel export
                </button>
              ) : (
                <>
                  {each.state === 'done' && download && (
                    <a className="button small" href={download} download>
                      Download zip
                    </a>
                  )}
                  <button
                    type="button"
                    className="ghost small"
                    onClick={() => setDismissed((d) => new Set(d).add(each.id))}
                  >
                    Dismiss
                  </button>
                </>
              )}
            </div>
          </div>
        );
      })}
    </section>
  );
}
