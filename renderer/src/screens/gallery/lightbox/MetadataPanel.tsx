import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { formatBytes, formatSize, formatWhole } from '../../../format.ts';
import { copyText } from '../../../views/copy-text.ts';
import { useEditCount } from '../gallery-queries.ts';
import { CopyIcon } from './icons.tsx';
import { parametersJson, type ImageDetail } from './rerun-draft.ts';

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

/**
 * A value that is worth pasting elsewhere (ids, paths, hashes), with its own copy button at the
 * row's right edge. A token is kept whole on one line (cut with an ellipsis, the whole in its
 * title); a path may wrap, after a slash where it can.
 */
function Copyable({ value, what, path }: { value: string; what: string; path?: boolean }) {
  return (
    <span className="lb-copyable">
      <code className={path ? 'lb-path' : 'lb-token'} title={value}>
        {path ? slashBreaks(value) : value}
      </code>
      <CopyButton label={`Copy ${what}`} onClick={() => void copy(value, what)} />
    </span>
  );
}

/** The path with a break opportunity after each slash, so it wraps there first. */
function slashBreaks(path: string): ReactNode[] {
  return path
    .split(/(?<=[/\\])/)
    .flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

function CopyButton({ label, onClick, text }: { label: string; onClick(): void; text?: string }) {
  return (
    <button
      type="button"
      className={`ghost lb-copy${text ? ' lb-copy-text' : ''}`}
      aria-label={label}
      title={label}
      onClick={onClick}
    >
      <CopyIcon />
      {text}
    </button>
  );
}

/** A section's heading, with what acts on the whole section at its right. */
function Heading({ id, title, children }: { id?: string; title: string; children?: ReactNode }) {
  return (
    <div className="lb-heading">
      <h3 id={id}>{title}</h3>
      {children}
    </div>
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

/** Where the details lead: the picture an edit was made from, its edits. */
export interface EditLinks {
  /** Shows another image in the lightbox (the source of an edit). */
  showImage(id: number): void;
  /** The source and its edit side by side, the slider over them: before and after. */
  compare(source: number, edit: number): void;
  /** The gallery filtered to the edits of this image. */
  showEdits(id: number): void;
}

/** Everything known about one image: what made it, and where and what its file is. */
export function MetadataPanel({
  detail,
  fileActions,
  links,
  played,
}: {
  detail: ImageDetail;
  /** A video's pixels as its player read them (the library does not read a video's header). */
  played?: { width: number; height: number } | null;
  /** Shown beside the file's heading (the desktop's folder and viewer). */
  fileActions?: ReactNode;
  links?: EditLinks;
}) {
  const size = detail.width && detail.height ? detail : (played ?? null);
  const pixels = size ? `${size.width} × ${size.height}` : null;
  const params = parameterRows(detail.params);
  return (
    <div className="lb-meta">
      <section aria-labelledby="lb-prompt-heading">
        <Heading id="lb-prompt-heading" title="Prompt">
          <CopyButton
            label="Copy prompt"
            text="Copy"
            onClick={() => void copy(detail.prompt, 'Prompt')}
          />
        </Heading>
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
        <Heading title="Parameters">
          <CopyButton
            label="Copy parameters"
            text="Copy"
            onClick={() => void copy(parametersJson(detail), 'Parameters')}
          />
        </Heading>
        <dl className="lb-dl">
          <Row label="Model">{detail.model}</Row>
          <Row label="Size asked">
            {detail.size ? formatSize(detail.size) : "the model's default"}
          </Row>
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
        <Heading title="Origin" />
        <dl className="lb-dl">
          <EditRows detail={detail} links={links} />
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
        <Heading title="File">{fileActions}</Heading>
        <dl className="lb-dl">
          <Row label="Path">
            {detail.path ? <Copyable value={detail.path} what="file path" path /> : '—'}
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

/**
 * What an edit was made from (a link to the picture, before and after), with its mask; for any
 * other picture, how many edits were made of it, with a way to them.
 */
function EditRows({ detail, links }: { detail: ImageDetail; links: EditLinks | undefined }) {
  const from = detail.editedFrom ?? null;
  const edits = useEditCount(from ? undefined : detail.id).data ?? 0;
  if (from) {
    const source = from.imageId;
    return (
      <>
        <Row label="Edited from">
          {source !== null && links ? (
            <span className="lb-edited-from">
              <button
                type="button"
                className="lb-link"
                title="Show the picture this was made from"
                onClick={() => links.showImage(source)}
              >
                {from.label}
              </button>
              <button
                type="button"
                className="ghost lb-small"
                title="The original and this edit, one over the other"
                onClick={() => links.compare(source, detail.id)}
              >
                Before / after
              </button>
            </span>
          ) : (
            <span>
              {from.label}
              {source === null && <span className="muted"> (no longer in the gallery)</span>}
            </span>
          )}
        </Row>
        <Row label="Mask">
          {from.mask
            ? from.keepOutsideMask
              ? 'The painted part; the rest kept from the original'
              : 'The painted part'
            : 'None: the whole picture'}
        </Row>
      </>
    );
  }
  if (edits === 0) return null;
  return (
    <Row label="Edits">
      <span className="lb-edited-from">
        {formatWhole(edits)} made from this picture
        {links && (
          <button
            type="button"
            className="ghost lb-small"
            onClick={() => links.showEdits(detail.id)}
          >
            Show
          </button>
        )}
      </span>
    </Row>
  );
}
