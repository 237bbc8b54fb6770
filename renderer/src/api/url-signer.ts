import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { SessionGrant } from '../../../shared/api/session.ts';
import {
  SIGNED_PARAMS,
  signedUrlExpiry,
  signedUrlMessage,
} from '../../../shared/api/signed-url.ts';

/** URLs kept at most; past it they are minted again (an HMAC is microseconds). */
const MAX_KEPT = 10_000;

/**
 * Signs the URLs an `<img>`, a `<video>` or a download link asks for with this session's media
 * key (shared/api/signed-url.ts). Synchronous, as the screens build URLs while rendering: Web
 * Crypto's HMAC is asynchronous only, so @noble/hashes (audited, no dependencies) computes it.
 * A URL is kept for its window, so an image renders with the same URL, and the browser's
 * caches find it, until the window turns.
 */
export class UrlSigner {
  private readonly key: Uint8Array;
  private readonly grant: SessionGrant;
  private readonly now: () => number;
  private readonly minted = new Map<string, string>();
  private expires = 0;

  constructor(grant: SessionGrant, now: () => number = Date.now) {
    this.grant = grant;
    this.key = fromBase64Url(grant.mediaKey);
    this.now = now;
  }

  /** `rawPath` (percent-encoded, as the browser will send it) with its signed query. */
  sign(rawPath: string, version?: string): string {
    const expires = signedUrlExpiry(this.now());
    // a new window: every URL is minted again (and the memory of URLs stays bounded)
    if (expires !== this.expires || this.minted.size >= MAX_KEPT) {
      this.minted.clear();
      this.expires = expires;
    }
    const id = version === undefined ? rawPath : `${rawPath}?${version}`;
    let url = this.minted.get(id);
    if (url === undefined) {
      const message = signedUrlMessage(this.grant.sessionId, expires, rawPath);
      const signature = toBase64Url(hmac(sha256, this.key, new TextEncoder().encode(message)));
      const query = new URLSearchParams();
      if (version !== undefined) query.set(SIGNED_PARAMS.version, version);
      query.set(SIGNED_PARAMS.expires, String(expires));
      query.set(SIGNED_PARAMS.session, this.grant.sessionId);
      query.set(SIGNED_PARAMS.signature, signature);
      url = `${rawPath}?${query}`;
      this.minted.set(id, url);
    }
    return url;
  }
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
