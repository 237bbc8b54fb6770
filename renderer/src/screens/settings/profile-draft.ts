import type { z } from 'zod';
import { GatewayProfileSettings } from '../../../../shared/api/schemas/settings.ts';
import { GatewayProfileSchema, HEADERS_ATELIER_SETS } from '../../../../shared/gateway/profile.ts';

export type GatewayProfileValue = z.infer<typeof GatewayProfileSettings>;

export interface HeaderRow {
  /** Stable across edits, for React keys and error lookup. */
  id: number;
  name: string;
  value: string;
}

/** The profile form as typed: strings everywhere, headers as rows. */
export interface ProfileDraft {
  name: string;
  baseUrl: string;
  headers: HeaderRow[];
  requestIdHeader: string;
  advancedSegment: string;
  partialKey: string;
}

export type ProfileField = Exclude<keyof ProfileDraft, 'headers'>;

export interface ProfileCheck {
  errors: Partial<Record<ProfileField, string>>;
  /** By row id. */
  headerErrors: Record<number, string>;
  /** The profile to save, when nothing is wrong. */
  profile: GatewayProfileValue | null;
}

/** The interface's own names, which every new profile starts with. */
export const INTERFACE_DEFAULTS = {
  requestIdHeader: GatewayProfileSchema.shape.requestIdHeader.parse(undefined),
  advancedSegment: GatewayProfileSchema.shape.advancedSegment.parse(undefined),
  partialKey: GatewayProfileSchema.shape.partialKey.parse(undefined),
};

/** RFC 9110 token characters: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

let nextRowId = 1;
export function headerRow(name = '', value = ''): HeaderRow {
  return { id: nextRowId++, name, value };
}

export function emptyDraft(): ProfileDraft {
  return { name: '', baseUrl: '', headers: [], ...INTERFACE_DEFAULTS };
}

export function draftOf(profile: GatewayProfileValue): ProfileDraft {
  return {
    name: profile.name,
    baseUrl: profile.baseUrl,
    headers: Object.entries(profile.extraHeaders).map(([name, value]) => headerRow(name, value)),
    requestIdHeader: profile.requestIdHeader,
    advancedSegment: profile.advancedSegment,
    partialKey: profile.partialKey,
  };
}

/** What is wrong with a header name, or null. */
export function headerNameProblem(name: string): string | null {
  if (!HEADER_NAME.test(name)) {
    return `"${name}" is not a header name: letters, digits and - only, no spaces or colons.`;
  }
  const lower = name.toLowerCase();
  if (lower === 'authorization') {
    return 'Atelier sends the key itself: remove the Authorization header.';
  }
  if (HEADERS_ATELIER_SETS.has(lower)) return `Atelier sets ${name} itself: remove it.`;
  return null;
}

/**
 * Checks the form as it is typed, field by field, with the same schema the service uses;
 * `otherNames` are the other profiles' names (a name must be unique).
 */
export function checkProfile(draft: ProfileDraft, otherNames: readonly string[]): ProfileCheck {
  const errors: ProfileCheck['errors'] = {};
  const headerErrors: ProfileCheck['headerErrors'] = {};
  const name = draft.name.trim();
  if (!name) errors.name = 'Give the gateway a name.';
  else if (otherNames.includes(name)) errors.name = `Another gateway is named "${name}".`;

  const baseUrl = draft.baseUrl.trim();
  if (!baseUrl) errors.baseUrl = 'Enter the gateway’s address, e.g. https://gateway.example.com.';
  else {
    const parsed = GatewayProfileSchema.shape.baseUrl.safeParse(baseUrl);
    if (!parsed.success) errors.baseUrl = 'The base URL must start with http:// or https://.';
  }

  const extraHeaders: Record<string, string> = {};
  const seen = new Set<string>();
  for (const row of draft.headers) {
    const headerName = row.name.trim();
    if (!headerName && !row.value.trim()) continue; // a blank row is left out
    const problem = !headerName
      ? 'Name this header, or remove the row.'
      : seen.has(headerName.toLowerCase())
        ? `${headerName} is given twice: keep one.`
        : /[\r\n]/.test(row.value)
          ? 'A header value is one line.'
          : headerNameProblem(headerName);
    if (problem) headerErrors[row.id] = problem;
    seen.add(headerName.toLowerCase());
    extraHeaders[headerName] = row.value.trim();
  }

  const requestIdHeader = draft.requestIdHeader.trim();
  if (!requestIdHeader) errors.requestIdHeader = 'Enter the header the gateway sends its id in.';
  else if (!HEADER_NAME.test(requestIdHeader)) {
    errors.requestIdHeader = 'A header name: letters, digits and - only.';
  }
  const advancedSegment = draft.advancedSegment.trim();
  const segment = GatewayProfileSchema.shape.advancedSegment.safeParse(advancedSegment);
  if (!segment.success) errors.advancedSegment = segment.error.issues[0]!.message;
  const partialKey = draft.partialKey.trim();
  if (!partialKey) errors.partialKey = 'Enter the key the gateway marks partial results with.';

  if (Object.keys(errors).length > 0 || Object.keys(headerErrors).length > 0) {
    return { errors, headerErrors, profile: null };
  }
  const parsed = GatewayProfileSettings.safeParse({
    name,
    baseUrl,
    extraHeaders,
    requestIdHeader,
    advancedSegment,
    partialKey,
  });
  if (!parsed.success) {
    return { errors: { name: parsed.error.issues[0]!.message }, headerErrors, profile: null };
  }
  return { errors, headerErrors, profile: parsed.data };
}
