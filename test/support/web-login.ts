import { request } from 'undici';
import { codeInFragment, SESSION_PATH, type SessionGrant } from '../../shared/api/session.ts';

/**
 * Opens an address the web host gave (`…/#code=…`) as the page does: trades its code for a
 * session. Send `Authorization: Bearer ${grant.token}` with every request after it.
 */
export async function openSession(address: string): Promise<SessionGrant> {
  const url = new URL(address);
  const { code } = codeInFragment(url.hash);
  if (!code) throw new Error(`${address} has no #code=`);
  const response = await request(`${url.origin}${SESSION_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url.origin },
    body: JSON.stringify({ code }),
  });
  const result = (await response.body.json()) as { ok: boolean; value?: SessionGrant };
  if (!result.ok || !result.value) throw new Error(`No session: ${JSON.stringify(result)}`);
  return result.value;
}
