import { request } from 'undici';

/** Opens the address `atelier ui` prints (url with its token) and returns the session cookie. */
export async function logIn(hostUrl: string, token: string): Promise<string> {
  const login = await request(`${hostUrl}?token=${token}`);
  await login.body.dump();
  return String(login.headers['set-cookie']).split(';')[0]!;
}
