/**
 * Sentry's ProjectKeySerializer. Keys here have no secret part (SDKs have not needed one for years),
 * so `secret` is null and `dsn.secret` equals `dsn.public`. The other endpoint URLs are given in
 * Sentry's form for tools that read them; see docs/api.md for which ones the ingest door accepts.
 */
import { dsnFor } from "../../services/projects/dsn";
import type { ProjectKey } from "../../model";
import { isoDate } from "./common";

export interface ProjectKeyJson {
  id: string;
  name: string;
  label: string;
  public: string;
  secret: null;
  projectId: number;
  isActive: boolean;
  rateLimit: { window: number; count: number } | null;
  dateCreated: string;
  dsn: { secret: string; public: string; csp: string; security: string; minidump: string; nel: string; unreal: string };
}

export function serializeProjectKey(key: ProjectKey, publicUrl: string): ProjectKeyJson {
  // Sentry shows an unnamed key under the start of its public key.
  const name = key.label || key.publicKey.slice(0, 14);
  const dsn = dsnFor(publicUrl, key);
  const api = `${publicUrl}/api/${key.projectId}`;
  const query = `?sentry_key=${key.publicKey}`;
  return {
    id: key.publicKey,
    name,
    label: name,
    public: key.publicKey,
    secret: null,
    projectId: Number(key.projectId),
    isActive: key.isActive,
    rateLimit: key.rateLimit ? { window: key.rateLimit.window, count: key.rateLimit.count } : null,
    dateCreated: isoDate(key.dateCreated),
    dsn: {
      secret: dsn,
      public: dsn,
      csp: `${api}/csp-report/${query}`,
      security: `${api}/security/${query}`,
      minidump: `${api}/minidump/${query}`,
      nel: `${api}/nel/${query}`,
      unreal: `${api}/unreal/${key.publicKey}/`,
    },
  };
}
