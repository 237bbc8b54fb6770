import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { formatWhole } from '../../../format.ts';
import { copyText } from '../../queue/copy-text.ts';
import { CopyIcon } from './icons.tsx';
import type { ImageDetail } from './rerun-draft.ts';

/** 1.2 MB, 340 KB, 900 B. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const valueText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Every parameter of the job, flat: the extra fields beside the others. */
export function parameterRows(params: Readonly<Record<string, unknown>>): [string, string][] {
  const rows: [string, string][] = [];
  for (const [key, value] of Object.entries(params)) {
    if (key === 'negative_prompt') continue; // shown as its own field
    if (key === 'extra' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) rows.push([k, valueText(v)]);
    } else rows.push([key, valueText(value)]);
  }
  return rows;
}

async function copy(text: string, what: string) {
  try {
    await copyText(text);
    toast.success(`${what} copied`);
  } catch (error) {
    toast.error(error instanceof Error ? error.message : String(error));
  }
}

/** A value that is worth pasting elsewhere (ids, paths, hashes), with its own copy button. */
function Copyable({ value, what }: { value: string; what: string }) {
  return (
    <span className="lb-copyable">
      <code>{value}</code>
      <button
        type="button"
        className="ghost lb-copy"
        aria-label={`Copy ${what}`}
        title={`Copy ${what}`}
        onClick={() => void copy(value, what)}
      >
        <CopyIcon />
      </button>
    </span>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="lb-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Everything known about one image: what made it, and where and what its file is. */
export function MetadataPanel({ detail }: { detail: ImageDetail }) {
  const pixels = detail.width && detail.height ? `${detail.width}×${detail.height}` : null;
  const params = parameterRows(detail.params);
  return (
    <div className="lb-meta">
      <section aria-labelledby="lb-prompt-heading">
        <h3 id="lb-prompt-heading">Prompt</h3>
        <p className="lb-prompt">{detail.prompt}</p>
        {detail.revisedPrompt && (
          <>
            <h3>Revised prompt</h3>
            <p className="lb-prompt lb-prompt-secondary">{detail.revisedPrompt}</p>
          </>
        )}
        {detail.negativePrompt && (
          <>
            <h3>Negative prompt</h3>
            <p className="lb-prompt lb-prompt-secondary">{detail.negativePrompt}</p>
          </>
        )}
      </section>
      <section aria-label="Parameters">
        <h3>Parameters</h3>
        <dl className="lb-dl">
          <Row label="Model">{detail.model}</Row>
          <Row label="Size asked">{detail.size ?? 'default'}</Row>
          <Row label="Pixels">{pixels ?? '—'}</Row>
          <Row label="Seed">
            {detail.seed === null ? 'none' : <Copyable value={String(detail.seed)} what="seed" />}
          </Row>
          {params.map(([key, value]) => (
            <Row key={key} label={key}>
              <span className="lb-param">{value}</span>
            </Row>
          ))}
        </dl>
      </section>
      <section aria-label="Origin">
        <h3>Origin</h3>
        <dl className="lb-dl">
          <Row label="Batch">{detail.batchName || `#${detail.batchId}`}</Row>
          <Row label="Created">{new Date(detail.createdAt).toLocaleString()}</Row>
          <Row label="Request id">
            {detail.requestId ? <Copyable value={detail.requestId} what="request id" /> : '—'}
          </Row>
          <Row label="Upstream id">
            {detail.upstreamRequestId ? (
              <Copyable value={detail.upstreamRequestId} what="upstream request id" />
            ) : (
              '—'
            )}
          </Row>
        </dl>
      </section>
      <section aria-label="File">
        <h3>File</h3>
        <dl className="lb-dl">
          <Row label="Path">
            {detail.path ? <Copyable value={detail.path} what="file path" /> : '—'}
          </Row>
          <Row label="Format">{detail.format ?? '—'}</Row>
          <Row label="Bytes">
            {detail.bytes === null
              ? '—'
              : `${formatBytes(detail.bytes)} (${formatWhole(detail.bytes)} bytes)`}
          </Row>
          <Row label="SHA-256">
            {detail.sha256 ? <Copyable value={detail.sha256} what="SHA-256" /> : '—'}
          </Row>
        </dl>
      </section>
    </div>
  );
}

export { copy as copyWithToast };
