import { z } from 'zod';

// Zod compiles object parsers with `new Function`, which the renderer's CSP forbids (and
// reports even when caught): parse without it.
z.config({ jitless: true });
