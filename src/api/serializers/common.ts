/** Sentry's API writes times as ISO 8601 UTC strings; storage keeps Unix milliseconds. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString();
}

/** Sentry's letter avatar, the default for organisations and projects without an upload. */
export const LETTER_AVATAR = { avatarType: "letter_avatar", avatarUuid: null } as const;
