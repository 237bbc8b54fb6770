import type { AddressInfo } from 'node:net';
import type { GatewayState, Route } from './context.ts';
import { FaultPicker, parseFaultSpec, type FaultRule } from './faults.ts';
import { KeyRing } from './keys.ts';
import { Ledger } from './ledger.ts';
import { resolveOptions, type GatewayOptions, type ResolvedOptions } from './options.ts';
import { createRandom } from './random.ts';
import { chatRoutes } from './routes/chat.ts';
import { fileRoutes } from './routes/files.ts';
import type { ReceivedEdit } from './images/received-edits.ts';
import { imageServices } from './images/services.ts';
import { imageRoutes } from './routes/images.ts';
import { modelRoutes } from './routes/models.ts';
import { ledgerRoutes } from './routes/ledger.ts';
import { responsesRoutes } from './routes/responses.ts';
import { videoRoutes } from './routes/videos.ts';
import { createGatewayServer } from './server.ts';
import type { LatencyModel } from './latency.ts';

export type { GatewayOptions } from './options.ts';
export type { ReceivedEdit } from './images/received-edits.ts';

export interface RunningGateway {
  /** Base address, e.g. http://127.0.0.1:8700 (the OpenAI root is `${url}/v1`). */
  url: string;
  /** The first configured key (the demo key by default). */
  key: string;
  options: ResolvedOptions;
  ledger: Ledger;
  keys: KeyRing;
  /** Replaces the fault rules of the running simulator. */
  setFaults(spec: string | FaultRule[]): void;
  /** Changes the latency of the requests that arrive from now on. */
  setLatency(latency: Partial<LatencyModel>): void;
  /** The last edits it accepted (up to 200), as received: fields, part names, files, mask. */
  receivedEdits(): ReceivedEdit[];
  /** Resolves once no request is in flight. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Route modules, each owning its own state (file links, video tasks…). */
type RouteModule = (state: GatewayState) => Route[];
const ROUTE_MODULES: RouteModule[] = [
  modelRoutes,
  ledgerRoutes,
  chatRoutes,
  responsesRoutes,
  videoRoutes,
  imageRoutes,
  fileRoutes,
];

export async function startGateway(options: GatewayOptions = {}): Promise<RunningGateway> {
  const resolved = resolveOptions(options);
  const random = createRandom(resolved.seed);
  const rules =
    typeof options.faults === 'string' ? parseFaultSpec(options.faults) : (options.faults ?? []);
  const state: GatewayState = {
    options: resolved,
    keys: new KeyRing(resolved.keys),
    ledger: new Ledger(resolved.balance),
    faults: new FaultPicker([...rules], random),
    random,
    baseUrl: '',
    models: new Map(resolved.models.map((m) => [m.id, m])),
  };
  const routes = ROUTE_MODULES.flatMap((module) => module(state));
  const { server, idle } = createGatewayServer(state, routes);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://${resolved.host}:${port}`;

  return {
    url: state.baseUrl,
    key: resolved.keys[0]?.key ?? '',
    options: resolved,
    ledger: state.ledger,
    keys: state.keys,
    setFaults: (spec) => state.faults.set(typeof spec === 'string' ? parseFaultSpec(spec) : spec),
    setLatency: (latency) => Object.assign(state.options.latency, latency),
    receivedEdits: () => imageServices(state).received.all(),
    idle,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
