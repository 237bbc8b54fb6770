import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useRef, useState, type ReactElement } from 'react';
import { confirmationAsked, type SpendCheckValue } from '../../../shared/api/spend-refusal.ts';
import { formatMoney, formatUnits } from '../../../shared/spend/money.ts';
import { plural } from '../format.ts';
import { useAppInfo } from '../data/app-queries.ts';

export type SpendCheck = SpendCheckValue;

interface Asking {
  spend: SpendCheck;
  /** The confirm button's verb: "Run", "Resume". */
  verb: string;
  answer: (confirmed: boolean) => void;
}

/**
 * The question asked before work over the confirmation threshold starts: `ask` opens the
 * dialog and resolves with the person's answer; `dialog` is rendered where the screen is.
 */
export function useSpendConfirm(): {
  ask: (spend: SpendCheck, verb?: string) => Promise<boolean>;
  /** The dialog is open, waiting for the person. */
  asking: boolean;
  dialog: ReactElement;
} {
  const [asking, setAsking] = useState<Asking | null>(null);
  const current = useRef<Asking | null>(null);
  const ask = useCallback(
    (spend: SpendCheck, verb = 'Run') =>
      new Promise<boolean>((resolve) => {
        current.current?.answer(false);
        const next: Asking = {
          spend,
          verb,
          answer: (confirmed) => {
            if (current.current !== next) return;
            current.current = null;
            setAsking(null);
            resolve(confirmed);
          },
        };
        current.current = next;
        setAsking(next);
      }),
    [],
  );
  return { ask, asking: asking !== null, dialog: <SpendConfirmDialog asking={asking} /> };
}

/** "$80.00" where a price and a currency are known, else the quota units. */
function headline(spend: SpendCheck): string {
  if (spend.money) return formatMoney(spend.money);
  if (spend.units > 0) return `${formatUnits(spend.units)} quota units`;
  return plural(spend.requests, 'request');
}

/** Which of the person's thresholds the work passes, in words. */
function overWhat(spend: SpendCheck): string {
  const { units, requests } = spend.confirm.threshold;
  const over = [
    units !== null && spend.units > units ? `${formatUnits(units)} quota units` : null,
    requests !== null && spend.requests > requests ? plural(requests, 'request') : null,
  ].filter(Boolean);
  return over.length > 0 ? over.join(' and ') : 'your confirmation threshold';
}

function SpendConfirmDialog({ asking }: { asking: Asking | null }) {
  const spend = asking?.spend;
  const demo = useAppInfo().data?.demo ?? false;
  return (
    <Dialog.Root open={asking !== null} onOpenChange={(open) => !open && asking?.answer(false)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog spend-confirm" aria-describedby="spend-confirm-why">
          {spend && asking && (
            <>
              <Dialog.Title>Spend about {headline(spend)}?</Dialog.Title>
              <p id="spend-confirm-why" className="spend-confirm-why">
                This is more than {overWhat(spend)}, the most Atelier starts without asking
                (Settings › Spending).
              </p>
              {demo && (
                <p className="notice notice-demo spend-confirm-demo" role="note">
                  Demo mode: the simulator answers and nothing is charged. These are the figures a
                  real gateway would take at these prices.
                </p>
              )}
              <dl className="spend-facts" aria-label="What it will spend">
                <div>
                  <dt>Requests</dt>
                  <dd>{spend.requests.toLocaleString('en-US')}</dd>
                </div>
                <div>
                  <dt>Images</dt>
                  <dd>{spend.images.toLocaleString('en-US')}</dd>
                </div>
                <div>
                  <dt>Spend</dt>
                  <dd>
                    {formatUnits(spend.units)} quota units
                    {spend.money && (
                      <span className="spend-money"> (≈ {formatMoney(spend.money)})</span>
                    )}
                    {spend.unpriced.length > 0 && (
                      <span className="spend-unpriced">
                        {' '}
                        + {spend.unpriced.join(', ')} at a price Atelier does not know
                      </span>
                    )}
                  </dd>
                </div>
              </dl>
              {spend.lines.length > 1 && (
                <table className="spend-lines" aria-label="Spend per model">
                  <thead>
                    <tr>
                      <th scope="col">Model</th>
                      <th scope="col">Images</th>
                      <th scope="col">Quota units</th>
                    </tr>
                  </thead>
                  <tbody>
                    {spend.lines.map((line) => (
                      <tr key={line.model}>
                        <th scope="row">{line.model}</th>
                        <td>{line.images.toLocaleString('en-US')}</td>
                        <td>{line.units === null ? 'unknown' : formatUnits(line.units)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <p className="muted spend-confirm-caps">
                The queue still pauses before it passes a spending cap.
              </p>
              <div className="dialog-actions">
                <button type="button" className="ghost" onClick={() => asking.answer(false)}>
                  Not now
                </button>
                <button type="button" onClick={() => asking.answer(true)}>
                  {asking.verb} and spend {headline(spend)}
                </button>
              </div>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * Calls `call`, first asking the person when `known` (a check's estimate) needs it, and again
 * when the service refuses for want of a confirmation (the estimate changed since): null when
 * the person declined.
 */
export async function withConfirmedSpend<I extends object, O>(
  input: I,
  call: (input: I & { confirmedSpend?: { units: number; requests: number } }) => Promise<O>,
  ask: (spend: SpendCheck) => Promise<boolean>,
  known?: SpendCheck | null,
): Promise<O | null> {
  const confirmed = (spend: SpendCheck) => ({
    ...input,
    confirmedSpend: { units: spend.units, requests: spend.requests },
  });
  let sending: I & { confirmedSpend?: { units: number; requests: number } } = input;
  if (known?.confirm.needed) {
    if (!(await ask(known))) return null;
    sending = confirmed(known);
  }
  try {
    return await call(sending);
  } catch (error) {
    const spend = confirmationAsked(error);
    if (!spend) throw error;
    if (!(await ask(spend))) return null;
    return call(confirmed(spend));
  }
}
