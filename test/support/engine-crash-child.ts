// Child process for the engine's kill -9 test: runs the queue of an existing data folder
// against the parent's simulator and reports its counts until the parent kills it.
import { Engine } from '../../main/core/engine/engine.ts';
import { createGatewayClient } from '../../main/core/gateway/client.ts';
import { openStore } from '../../main/core/store/store.ts';

const [dbFile, libraryDir, url, key] = process.argv.slice(2);
const store = openStore(dbFile!);
const client = createGatewayClient({ profile: { baseUrl: url! }, apiKey: key! });
const engine = new Engine({ store, client, libraryDir: libraryDir!, concurrency: 16 });
await engine.start();
setInterval(() => {
  const { jobs, downloads } = engine.progress();
  process.stdout.write(`${jobs.succeeded} ${downloads.done} ${jobs.running}\n`);
}, 10);
