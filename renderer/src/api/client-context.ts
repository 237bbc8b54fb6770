import { createContext, useContext } from 'react';
import type { Client } from './client.ts';

export const ClientContext = createContext<Client | null>(null);

/** The API and media URLs, for views that act on one thing (an image's details, its file). */
export function useClient(): Client {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient needs a <ClientContext value={client}> above it.');
  return client;
}
