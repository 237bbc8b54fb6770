import { contextBridge } from 'electron';

// The typed renderer API arrives with the renderer issue; until then only the version is exposed.
contextBridge.exposeInMainWorld('atelier', { version: process.versions['electron'] ?? 'unknown' });
