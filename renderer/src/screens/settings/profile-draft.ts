import type { z } from 'zod';
import {
  GatewayProfileInput,
  type GatewayProfileView,
} from '../../../../shared/api/schemas/settings.ts';
import {
  GatewayProfileSchema,
  HEADER_NAME,
  headerNameProblem,
  type MultipartImageField,
} from '../../../../shared/gateway/profile.ts';

/** A gateway profile as the service shows it: each header's value masked. */
export type GatewayProfileValue = z.infer<typeof GatewayProfileView>;
/** A gateway profile as the form saves it: each header kept by its id, or given a new value. */
export type GatewayProfileEdit = z.infer<typeof GatewayProfileInput>;

/** A header's value the service keeps: never shown, only its last four characters. */
export interface KeptValue {
  id: string;
  /** Null when this Atelier has no value for it (the browser host restarted, say). */
  last4: string | null;
}

export interface HeaderRow {
  /** Stable across edits, for React keys and error lookup. */
  id: number;
  name: string;
  /** A new value; empty keeps the one the service has (`kept`). */
  value: string;
  kept: KeptValue | null;
}

/** The profile form as typed: strings everywhere, headers as rows. */
export interface ProfileDraft {
  name: string;
  baseUrl: string;
  headers: HeaderRow[];
  requestIdHeader: string;
  advancedSegment: string;
  partialKey: string;
  /** The name of the picture's part in a multipart edit (`auto`: by the count of files). */
  multipartImageField: MultipartImageField;
}

export type ProfileField = Exclude<keyof ProfileDraft, 'headers'>;

export interface ProfileCheck {
  errors: Partial<Record<ProfileField, string>>;
  /** By row id. */
  headerErrors: Record<number, string>;
  /** The profile to save, when nothing is wrong. */
  profile: GatewayProfileEdit | null;
}

/** The interface's own names, which every new profile starts with. */
export const INTERFACE_DEFAULTS = {
  requestIdHeader: GatewayProfileSchema.shape.requestIdHeader.parse(undefined),
  advancedSegment: GatewayProfileSchema.shape.advancedSegment.parse(undefined),
  partialKey: GatewayProfileSchema.shape.partialKey.parse(undefined),
  multipartImageField: GatewayProfileSchema.shape.multipartImageField.parse(undefined),
};

let nextRowId = 1;
export function headerRow(name = '', value = '', kept: KeptValue | null = null): HeaderRow {
  return { id: nextRowId++, name, value, kept };
}

export function emptyDraft(): ProfileDraft {
  return { name: '', baseUrl: '', headers: [], ...INTERFACE_DEFAULTS };
}

export function draftOf(profile: GatewayProfileValue): ProfileDraft {
  return {
    name: profile.name,
    baseUrl: profile.baseUrl,
    headers: profile.headers.map((h) => headerRow(h.name, '', { id: h.id, last4: h.last4 })),
    requestIdHeader: profile.requestIdHeader,
    advancedSegment: profile.advancedSegment,
    partialKey: profile.partialKey,
    multipartImageField: profile.multipartImageField,
  };
}

export { headerNameProblem };

/** A profile as the service showed it, sent back unchanged: each header kept by its id. */
export function unchanged(profile: GatewayProfileValue): GatewayProfileEdit {
  return { ...profile, headers: profile.headers.map(({ name, id }) => ({ name, id })) };
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

  const headers: GatewayProfileEdit['headers'] = [];
  const seen = new Set<string>();
  for (const row of draft.headers) {
    const headerName = row.name.trim();
    const value = row.value.trim();
    if (!headerName && !value && !row.kept) continue; // a blank row is left out
    const problem = !headerName
      ? 'Name this header, or remove the row.'
      : seen.has(headerName.toLowerCase())
        ? `${headerName} is given twice: keep one.`
        : /[\r\n]/.test(row.value)
          ? 'A header value is one line.'
          : (headerNameProblem(headerName) ??
            (!value && !row.kept ? 'Enter this header’s value, or remove the row.' : null));
    seen.add(headerName.toLowerCase());
    if (problem) headerErrors[row.id] = problem;
    // an empty value keeps the one the service has; a typed one replaces it
    else if (value) headers.push({ name: headerName, value });
    else headers.push({ name: headerName, id: row.kept!.id });
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
  const parsed = GatewayProfileInput.safeParse({
    name,
    baseUrl,
    headers,
    requestIdHeader,
    advancedSegment,
    partialKey,
    multipartImageField: draft.multipartImageField,
  });
  if (!parsed.success) {
    return { errors: { name: parsed.error.issues[0]!.message }, headerErrors, profile: null };
  }
  return { errors, headerErrors, profile: parsed.data };
}
