import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_MODELS, type ImageModelEntry } from '../../../shared/gateway/catalogue.ts';
import { composeProblems } from '../../../renderer/src/screens/compose/params.ts';
import { openTestService, type TestService } from '../../support/test-service.ts';

let dir: string;
let opened: TestService;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'atelier-rules-'));
  opened = await openTestService(dir);
});
afterAll(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (id: string) => BUILT_IN_MODELS.find((e) => e.id === id) as ImageModelEntry;

describe('the parameter rules', () => {
  it('say the same sentence in Compose as the service’s check', async () => {
    const cases = [
      { model: 'dall-e-3', size: '4096x4096' },
      { model: 'dall-e-3', size: '512×512' },
      { model: 'dall-e-3', n: 2 },
      { model: 'flux-schnell', size: '4096x4096' },
      { model: 'gpt-image-1', quality: 'ultra' },
    ];
    for (const { model, size, n, quality } of cases) {
      const compose = composeProblems([entry(model)], {
        sizes: size ? [size] : [],
        seeds: [],
        ns: n ? [n] : [],
        quality,
      });
      const check = await opened.api.batches.check({
        source: {
          kind: 'rows',
          rows: [
            {
              prompt: 'a fox',
              model,
              ...(size ? { size } : {}),
              ...(n ? { n } : {}),
              ...(quality ? { quality } : {}),
            },
          ],
        },
      });
      expect(compose).toHaveLength(1);
      expect(check.errors[0]?.message).toContain(compose[0]);
    }
  });
});
