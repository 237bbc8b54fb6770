import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../../shared/api/events.ts';
import { REDACTED } from '../../../shared/gateway/redact.ts';
import { EventQueue, RESYNC_REASON } from '../../../main/web/event-queue.ts';
import { noRedaction, redactorFor } from '../../../main/web/redact.ts';

const event = (reason: string): ApiEvent => ({
  type: 'queue.paused',
  payload: { reason, code: null, kind: 'manual' },
});
const size = (events: ApiEvent[]) => JSON.stringify(events).length;

describe('EventQueue', () => {
  it('keeps deliveries in order within its bound', () => {
    const queue = new EventQueue(1000);
    expect(queue.push({ cursor: 'c1', events: [event('a')] })).toBe('queued');
    expect(queue.push({ cursor: 'c2', events: [event('b')] })).toBe('queued');
    expect(queue.queuedBytes).toBe(2 * size([event('a')]));
    expect(queue.shift()).toMatchObject({ kind: 'events', id: 'c1', events: [event('a')] });
    expect(queue.shift()).toMatchObject({ id: 'c2' });
    expect(queue.shift()).toBeUndefined();
    expect(queue.queuedBytes).toBe(0);
  });

  it('replaces the backlog by one resync carrying the newest cursor when it overflows', () => {
    const one = size([event('x'.repeat(100))]);
    const queue = new EventQueue(2 * one);
    queue.push({ cursor: 'c1', events: [event('x'.repeat(100))] });
    queue.push({ cursor: 'c2', events: [event('x'.repeat(100))] });
    expect(queue.push({ cursor: 'c3', events: [event('x'.repeat(100))] })).toBe('overflow');
    queue.push({ cursor: 'c4', events: [event('after')] });
    const resync = queue.shift();
    expect(resync).toMatchObject({
      id: 'c3',
      events: [{ type: 'resync', payload: { reason: RESYNC_REASON } }],
    });
    expect(queue.shift()).toMatchObject({ id: 'c4' });
    expect(queue.queuedBytes).toBe(0);
  });

  it('still sends one delivery bigger than the bound when nothing waits before it', () => {
    const queue = new EventQueue(10);
    expect(queue.push({ cursor: 'c1', events: [event('a long reason')] })).toBe('queued');
    expect(queue.shift()).toMatchObject({ id: 'c1' });
  });

  it('adds a keep-alive only when the queue is empty', () => {
    const queue = new EventQueue(1000);
    queue.pushComment();
    queue.pushComment();
    expect(queue.shift()).toEqual({ kind: 'comment' });
    expect(queue.shift()).toBeUndefined();
    queue.push({ cursor: 'c1', events: [event('a')] });
    queue.pushComment();
    expect(queue.shift()).toMatchObject({ id: 'c1' });
    expect(queue.shift()).toBeUndefined();
  });
});

describe('redactorFor', () => {
  const key = 'sk-test-abcdef123456';

  it('replaces the key in strings and object keys, and counts the bodies that held one', () => {
    const r = redactorFor([key]);
    expect(r.json({ a: 'plain' })).toBe('{"a":"plain"}');
    expect(r.hits).toBe(0);
    const text = r.json({ list: [`x ${key} y`, key.toUpperCase()], [key]: 1 });
    expect(JSON.parse(text)).toEqual({ list: [`x ${REDACTED} y`, REDACTED], [REDACTED]: 1 });
    expect(r.hits).toBe(1);
    expect(r.text(`GET /${key}`)).toBe(`GET /${REDACTED}`);
    expect(r.hits).toBe(1); // log lines are not responses
  });

  it('finds a key that JSON escapes', () => {
    const quoted = 'sk-a"b\\c-0123456789';
    const r = redactorFor([quoted]);
    expect(JSON.parse(r.json({ m: `key ${quoted}` }))).toEqual({ m: `key ${REDACTED}` });
  });

  it('uses the text it is given when the value is clean', () => {
    expect(redactorFor([key]).json({ a: 1 }, '{"a":1}')).toBe('{"a":1}');
    expect(noRedaction.json({ a: key })).toBe(JSON.stringify({ a: key }));
    expect(redactorFor([])).toBe(noRedaction);
  });
});
