/**
 * The demo's gateway, the one place every host starts it from (the desktop, `atelier ui` and
 * the CLI hand this to the core, which may not import the simulator): the simulator on
 * loopback at a realistic pace, so the queue is seen at work. Its code loads only when the
 * demo runs: a real gateway's run never pays for it.
 */
export interface DemoGateway {
  url: string;
  key: string;
  close(): Promise<void>;
}

/** A little latency, so progress has something to show. */
export const DEMO_LATENCY = { fixedMs: 150, jitterMs: 250 };
/** A text model's pace, about 80 tokens a second: prompt help is seen streaming in. */
export const DEMO_TOKEN_MS = 12;

export async function startDemoGateway(): Promise<DemoGateway> {
  const { startGateway } = await import('./index.ts');
  const gateway = await startGateway({
    host: '127.0.0.1',
    latency: DEMO_LATENCY,
    tokenMs: DEMO_TOKEN_MS,
  });
  return { url: gateway.url, key: gateway.key, close: () => gateway.close() };
}
