import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { SIGNED_OUT_HELP, SIGNED_OUT_TITLE } from '../../shared/api/session.ts';
import type { WebEnv } from './web-env.ts';

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

/** The page a browser window without a session is shown: a sentence, never raw JSON. */
export const REFUSAL_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escape(SIGNED_OUT_TITLE)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem}
@media (prefers-color-scheme:dark){body{background:#1b1b1f;color:#e6e6e9}}</style></head>
<body><main><h1>${escape(SIGNED_OUT_TITLE)}</h1><p>${escape(SIGNED_OUT_HELP)}</p></main></body>
</html>
`;

export function refusalPage(c: Context<WebEnv>, status: ContentfulStatusCode) {
  return c.body(REFUSAL_HTML, status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
  });
}
