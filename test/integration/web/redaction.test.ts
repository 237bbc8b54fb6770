import { describe, expect, it } from 'vitest';
import { keyForms, keySpans } from '../../../shared/gateway/key-forms.ts';
import { REDACTED } from '../../../shared/gateway/redact.ts';
import { openEvents, startTestHost, type Reply } from './harness.ts';

const KEY = 'sk-live-0123456789abcdefXYZ';
const forms = [keyForms(KEY)];
const holdsKey = (text: string) => keySpans(text, forms).length > 0;

describe('web host: secrets', () => {
  it('never lets the key out, in a result, an error, an event, a header or a log line', async () => {
    const t = await startTestHost({ leak: KEY, secretsToRedact: async () => [KEY] });
    const replies: Reply[] = [];
    const output = await t.call('library', 'info', {});
    replies.push(output);
    expect(output.status).toBe(200);
    expect(output.json.value.dataDir).toBe(`/data/${REDACTED}`);

    const error = await t.call('key', 'test', {});
    replies.push(error);
    expect(error.status).toBe(500);
    expect(error.json.error.message).toBe(`the gateway refused key ${REDACTED}`);

    // echoed by the schema's error: the key as input of a method that refuses it
    replies.push(await t.call('batches', 'list', { limit: KEY }));
    // in a path that is refused (logged) and one that is not found
    replies.push(await t.get(`/${KEY}`, { authorization: '' }));
    replies.push(await t.get(`/media/${KEY}.png`));

    const stream = await openEvents(t);
    t.app.events.emit([
      { type: 'queue.paused', payload: { reason: KEY, code: null, kind: 'auth' } },
    ]);
    const { events } = await stream.nextEvents();
    expect(events).toEqual([
      { type: 'queue.paused', payload: { reason: REDACTED, code: null, kind: 'auth' } },
    ]);

    for (const reply of replies) {
      expect(holdsKey(reply.text), reply.text).toBe(false);
      expect(holdsKey(JSON.stringify(reply.headers))).toBe(false);
    }
    expect(holdsKey(JSON.stringify(stream.headers))).toBe(false);
    expect(t.log.length).toBeGreaterThan(0);
    for (const line of t.log) expect(holdsKey(line), line).toBe(false);
    // and says a response carried one, for someone to fix the leak
    expect(t.log).toContainEqual(expect.stringMatching(/held a secret: it was redacted/));
  });

  it('follows the key as it changes', async () => {
    let key = 'sk-first-key-0000000';
    const t = await startTestHost({
      leak: 'sk-second-key-111111',
      secretsToRedact: async () => [key],
    });
    expect((await t.call('library', 'info', {})).text).toContain('sk-second-key-111111');
    key = 'sk-second-key-111111';
    expect((await t.call('library', 'info', {})).text).not.toContain('sk-second-key-111111');
  });
});
